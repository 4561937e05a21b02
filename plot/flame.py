#!/usr/bin/env python3
"""Draws a flame graph (SVG) from folded call stacks: "frame;frame;frame count" per line."""

# Drawing only: a frame's width is its samples in folded.txt (written by
# sb-profile) over all samples; nothing here computes a statistic. The first
# frame of each stack is the command name; kernel frames end in "_[k]".

import argparse
import html
import os
import sys
import tempfile
import zlib

PROG = "flame.py"
WIDTH = 1200            # drawing width in pixels
ROW = 16                # one frame's height
PAD = 10
TOP = 44                # title and subtitle
MIN_PX = 0.3            # narrower frames are left out
CHAR_PX = 7.0           # a label character at 12px monospace
KSUFFIX = "_[k]"

EXIT_OK, EXIT_INPUT, EXIT_ENV = 0, 2, 3


class InputError(Exception):
    """A malformed folded file: the message names the file and line."""


class Node:
    __slots__ = ("name", "count", "children")

    def __init__(self, name):
        self.name = name
        self.count = 0.0
        self.children = {}


def read_folded(path):
    """The call tree of a folded file: a root "all" whose children are the commands."""
    root = Node("all")
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            stack, sep, count = line.rpartition(" ")
            try:
                n = float(count)
            except ValueError:
                n = -1.0
            if not sep or not stack or not n > 0:
                raise InputError("%s:%d: not 'frame;frame;... COUNT'" % (path, lineno))
            node = root
            node.count += n
            for frame in stack.split(";"):
                child = node.children.get(frame)
                if child is None:
                    child = node.children[frame] = Node(frame)
                child.count += n
                node = child
    if root.count <= 0:
        raise InputError("%s: no stack" % path)
    return root


def depth_of(node):
    best, todo = 0, [(node, 0)]
    while todo:
        n, d = todo.pop()
        best = max(best, d)
        todo.extend((c, d + 1) for c in n.children.values())
    return best


def color(name):
    """Warm colours for user code, orange-brown for the kernel, grey for the root and commands."""
    h = zlib.crc32(name.encode("utf-8", "replace"))
    v1, v2 = (h & 0xff) / 255.0, ((h >> 8) & 0xff) / 255.0
    if name.endswith(KSUFFIX):
        return "rgb(%d,%d,%d)" % (200 + int(40 * v1), 120 + int(60 * v2), 40 + int(30 * v1))
    return "rgb(%d,%d,%d)" % (215 + int(40 * v1), 60 + int(120 * v2), 40 + int(20 * v2))


def label(name, px):
    chars = int((px - 6) / CHAR_PX)
    if chars < 3:
        return ""
    return name if len(name) <= chars else name[:chars - 2] + ".."


def svg(root, title, subtitle):
    depth = depth_of(root)
    height = TOP + (depth + 1) * ROW + PAD * 2
    scale = (WIDTH - 2 * PAD) / root.count
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="monospace" font-size="12">\n' % (WIDTH, height, WIDTH, height),
           '<rect width="100%" height="100%" fill="#f8f8f0"/>\n',
           '<text x="%d" y="20" font-size="16" text-anchor="middle">%s</text>\n'
           % (WIDTH // 2, html.escape(title)),
           '<text x="%d" y="36" fill="#555" text-anchor="middle">%s</text>\n'
           % (WIDTH // 2, html.escape(subtitle))]
    # frames bottom up: (node, x, depth); children left to right by name
    todo = [(root, float(PAD), 0)]
    while todo:
        node, x, d = todo.pop()
        w = node.count * scale
        if w < MIN_PX:
            continue
        y = height - PAD - (d + 1) * ROW
        name = node.name
        share = 100.0 * node.count / root.count
        fill = "rgb(200,200,200)" if d <= 1 else color(name)
        out.append('<g><title>%s (%.0f samples, %.2f%%)</title><rect x="%.2f" y="%d" width="%.2f" '
                   'height="%d" fill="%s" rx="2"/>' % (html.escape(name), node.count, share, x, y, w,
                                                       ROW - 1, fill))
        text = label(name, w)
        if text:
            out.append('<text x="%.2f" y="%d">%s</text>' % (x + 3, y + ROW - 4, html.escape(text)))
        out.append("</g>\n")
        cx = x
        for key in sorted(node.children):
            child = node.children[key]
            todo.append((child, cx, d + 1))
            cx += child.count * scale
    out.append("</svg>\n")
    return "".join(out)


def write_atomic(path, text):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def draw(folded, out, title):
    root = read_folded(folded)
    write_atomic(out, svg(root, title, "%.0f samples; width: share of the samples, bottom: "
                          "command, up: callees (kernel frames end in %s)" % (root.count, KSUFFIX)))
    return out


def profiles(run_path):
    """The profile directories of a run with folded stacks: [(name, dir)] sorted."""
    pdir = os.path.join(run_path, "profile")
    try:
        names = sorted(os.listdir(pdir))
    except OSError:
        return []
    return [(n, os.path.join(pdir, n)) for n in names
            if not n.startswith(".") and os.path.isfile(os.path.join(pdir, n, "folded.txt"))]


def draw_run(run_path, test="", force=False):
    """flame.svg for every profiled point of a run whose folded.txt is newer; the files drawn."""
    drawn = []
    for name, d in profiles(run_path):
        folded, out = os.path.join(d, "folded.txt"), os.path.join(d, "flame.svg")
        if not force and os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(folded):
            continue
        mode, _, tasks = name.rpartition("-")
        event = ""
        try:
            with open(os.path.join(d, "event"), encoding="utf-8") as f:
                event = f.readline().strip()
        except OSError:
            pass
        title = "%s%s at %s tasks%s" % (test + " " if test else "", mode, tasks,
                                         " (" + event + ")" if event else "")
        drawn.append(draw(folded, out, title))
    return drawn


def index_links(run_path, url_of):
    """HTML: links to a run's flame graphs; url_of(relative path) gives each link."""
    links = []
    for name, d in profiles(run_path):
        if os.path.exists(os.path.join(d, "flame.svg")):
            mode, _, tasks = name.rpartition("-")
            links.append('<a href="%s">%s at %s tasks</a>'
                         % (html.escape(url_of("profile/%s/flame.svg" % name)), html.escape(mode),
                            html.escape(tasks)))
    if not links:
        return ""
    return "<p>Flame graphs (profile/*/folded.txt): %s</p>\n" % ", ".join(links)


def main(argv):
    ap = argparse.ArgumentParser(prog=PROG, description="Draw a flame graph SVG from folded stacks.")
    ap.add_argument("folded", help="folded stacks: 'frame;frame;... COUNT' per line")
    ap.add_argument("-o", "--output", required=True, help="the SVG to write")
    ap.add_argument("--title", default="", help="title (default: the input's name)")
    args = ap.parse_args(argv)
    try:
        draw(args.folded, args.output, args.title or args.folded)
    except InputError as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return EXIT_INPUT
    except OSError as e:
        code = EXIT_INPUT if e.filename == args.folded else EXIT_ENV
        print("%s: %s: %s" % (PROG, e.filename or args.output, e.strerror), file=sys.stderr)
        return code
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
