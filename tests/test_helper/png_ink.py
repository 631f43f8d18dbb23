#!/usr/bin/env python3
"""png_ink.py PNG [--region X0 Y0 X1 Y1] [--tol N] [#RRGGBB ...]: how much
of a rendered picture is drawn.

Prints "WIDTH HEIGHT INK" and then, for each colour given, the number of
pixels within 24 per channel of it.  With --region, only the pixels with
X0 <= x < X1 and Y0 <= y < Y1 are counted (WIDTH and HEIGHT stay the
picture's); --tol sets the per-channel tolerance (default 24).  INK counts the pixels that are not
(nearly) white.  Reads 8-bit RGB or RGBA, non-interlaced PNG (what
rsvg-convert writes) with nothing but the standard library."""
import struct
import sys
import zlib


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
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
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
    ink = 0
    hits = [0] * len(wanted)
    for yy, line in enumerate(rows):
        if yy < y0 or yy >= y1:
            continue
        for x in range(max(0, x0) * bpp, min(width, x1) * bpp, bpp):
            r, g, b = line[x], line[x + 1], line[x + 2]
            alpha = line[x + 3] if bpp == 4 else 255
            if alpha > 0 and min(r, g, b) < 235:
                ink += 1
            for k, (wr, wg, wb) in enumerate(wanted):
                if alpha == 255 and abs(r - wr) <= tol and abs(g - wg) <= tol and abs(b - wb) <= tol:
                    hits[k] += 1
    print(" ".join(str(v) for v in [width, height, ink] + hits))


main()
