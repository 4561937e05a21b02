"""The legend box of a chart (selftest/plot_legend.t): PNG -> where the magenta key box is, and what touches the edges.

python3 png_box.py FILE.png -> "W H x0 y0 x1 y1 SIDES EDGE": the canvas, the bounding box of the
magenta pixels (plot.py's SB_PLOT_KEY_PROBE draws the key's box in #ff00ff), how many of its
four sides are drawn along at least 90% of their length (a box cut by the canvas edge lacks one),
and how many drawn (non-background) pixels lie in the canvas's outermost column or row.
Python's standard library only: zlib and the PNG filters.
"""
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("%s: not a PNG" % path)
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise SystemExit("%s: not an 8-bit RGB(A) non-interlaced PNG" % path)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = read_png(sys.argv[1])
    px = lambda x, y: rows[y][x * bpp:x * bpp + 3]
    magenta = [(x, y) for y in range(h) for x in range(w)
               if px(x, y)[0] > 200 and px(x, y)[1] < 90 and px(x, y)[2] > 200]
    if not magenta:
        print(w, h, -1, -1, -1, -1, 0, 0)
        return
    xs, ys = [p[0] for p in magenta], [p[1] for p in magenta]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    got = set(magenta)
    near = lambda x, y: any((x + dx, y + dy) in got for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    sides = 0
    sides += sum(near(x, y0) for x in range(x0, x1 + 1)) >= 0.9 * (x1 - x0 + 1)
    sides += sum(near(x, y1) for x in range(x0, x1 + 1)) >= 0.9 * (x1 - x0 + 1)
    sides += sum(near(x0, y) for y in range(y0, y1 + 1)) >= 0.9 * (y1 - y0 + 1)
    sides += sum(near(x1, y) for y in range(y0, y1 + 1)) >= 0.9 * (y1 - y0 + 1)
    bg = px(0, h // 2)
    edge = sum(px(x, y) != bg for x in (0, w - 1) for y in range(h)) + \
        sum(px(x, y) != bg for y in (0, h - 1) for x in range(w))
    print(w, h, x0, y0, x1, y1, sides, edge)


if __name__ == "__main__":
    main()
