#!/usr/bin/env python3
"""png_ink.py PNG [--region X0 Y0 X1 Y1] [--tol N] [#RRGGBB ...]: how much
of a rendered picture is drawn.

Prints "WIDTH HEIGHT INK" and then, for each colour given, the number of
pixels within 24 per channel of it.  With --region, only the pixels with
X0 <= x < X1 and Y0 <= y < Y1 are counted (WIDTH and HEIGHT stay the
picture's); --tol sets the per-channel tolerance (default 24).  INK counts the pixels that are not
(nearly) white.  Reads 8-bit RGB or RGBA, non-interlaced PNG (what
rsvg-convert writes) with nothing but the standard library."""
import re
import struct
import sys
import zlib
from collections import Counter
from itertools import accumulate

LOW = (255).__and__  # a byte of a sum, mod 256


def unfilter(f, line, prev, bpp):
    """The row's bytes (bytearray LINE, filter F) with PNG's filter undone,
    PREV the row above, undone.  None and Up (most rows) through whole-row
    operations; Sub a running sum per channel; Average and Paeth byte by
    byte, as the spec writes them."""
    n = len(line)
    if f == 0:
        return line
    if f == 2:
        # bytewise sums of two rows as two integers, no carry between bytes
        hi = int.from_bytes(b"\x80" * n, "big")
        a = int.from_bytes(line, "big")
        b = int.from_bytes(prev, "big")
        s = ((a & ~hi) + (b & ~hi)) ^ ((a ^ b) & hi)
        return bytearray(s.to_bytes(n, "big"))
    if f == 1:
        for c in range(bpp):
            line[c::bpp] = bytes(map(LOW, accumulate(line[c::bpp])))
        return line
    if f == 3:
        for x in range(n):
            a = line[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + (a + prev[x]) // 2) & 255
        return line
    if f == 4:
        for x in range(bpp):
            line[x] = (line[x] + prev[x]) & 255  # a = c = 0: Paeth is b

        def paeth(lo, hi):
            for x in range(lo, hi):
                a, b, c = line[x - bpp], prev[x], prev[x - bpp]
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255

        # where the row above is the same as a pixel before (b = c: a plot's
        # flat background), Paeth's predictor is a, as for Sub: such a
        # stretch is a running sum per channel
        same = (int.from_bytes(prev[bpp:], "big") ^ int.from_bytes(prev[:-bpp], "big")).to_bytes(n - bpp, "big")
        x = bpp
        for m in re.finditer(b"\x00{%d,}" % (2 * bpp), same):
            lo, hi = m.start() + bpp, m.end() + bpp
            paeth(x, lo)
            for k in range(lo, lo + bpp):
                line[k:hi:bpp] = bytes(map(LOW, accumulate(line[k:hi:bpp], initial=line[k - bpp])))[1:]
            x = hi
        paeth(x, n)
        return line
    sys.exit("png_ink: unknown filter %d" % f)


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("png_ink: %s: not a PNG" % path)
    pos, idat, head = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = head
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit("png_ink: %s: want 8-bit RGB(A), non-interlaced" % path)
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    i = 0
    for _ in range(height):
        f = raw[i]
        line = unfilter(f, bytearray(raw[i + 1:i + 1 + stride]), prev, bpp)
        i += 1 + stride
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: png_ink.py PNG [#RRGGBB ...]")
    width, height, bpp, rows = pixels(sys.argv[1])
    args = sys.argv[2:]
    x0, y0, x1, y1 = 0, 0, width, height
    if args[:1] == ["--region"]:
        x0, y0, x1, y1 = (int(float(v)) for v in args[1:5])
        args = args[5:]
    tol = 24
    if args[:1] == ["--tol"]:
        tol = int(args[1])
        args = args[2:]
    wanted = [tuple(int(c.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4)) for c in args]
    # each pixel's colour counted (a picture has few), then each colour judged
    seen = Counter()
    lo, hi = max(0, x0) * bpp, min(width, x1) * bpp
    for yy, line in enumerate(rows):
        if yy < y0 or yy >= y1 or lo >= hi:
            continue
        part = line[lo:hi]
        if bpp == 4:  # a pixel as one number, its bytes in memory order
            seen.update(memoryview(part).cast("I"))
        else:
            seen.update(zip(part[0::3], part[1::3], part[2::3]))
    ink = 0
    hits = [0] * len(wanted)
    for px, count in seen.items():
        if bpp == 4:
            px = px.to_bytes(4, sys.byteorder)
        r, g, b = px[0], px[1], px[2]
        alpha = px[3] if bpp == 4 else 255
        if alpha > 0 and min(r, g, b) < 235:
            ink += count
        for k, (wr, wg, wb) in enumerate(wanted):
            if alpha == 255 and abs(r - wr) <= tol and abs(g - wg) <= tol and abs(b - wb) <= tol:
                hits[k] += count
    print(" ".join(str(v) for v in [width, height, ink] + hits))


main()
