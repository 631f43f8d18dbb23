/* tiny - the benchmark's payload: starts and exits, nothing else. */
int main(void)
{
	return 0;
}
