#!/usr/bin/env python3
"""test_check_circles.py — scripts/check-circles.py on a tiny tree it writes and compiles:
loops through calls, through a header's static inline function and through JavaScript imports
are found and named, the files that only hang off them are not, a commented-out import counts
for nothing, and the same tree with each loop cut passes.

Usage: test_check_circles.py [CHECK_CIRCLES] (default: scripts/check-circles.py beside tests/)
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "scripts",
                                                            "check-circles.py")

# A calls B and B calls A; C calls A only. X includes Y's header, whose static inline function
# is all X uses of Y, and Y calls X; Z includes X's header only. P (python/src) calls A.
# m.js and n.js import each other (n.js over two lines); o.js imports m.js, and n.js's import
# of o.js is commented out.
TREE = {
    "src/loop/a.c": "int b_fn(void);\nint a_fn(void);\nint a_fn(void) { return b_fn() + 1; }\n",
    "src/loop/b.c": "int a_fn(void);\nint b_fn(void);\nint b_fn(void) { return a_fn() ? 2 : 0; }\n",
    "src/loop/c.c": "int a_fn(void);\nint c_fn(void);\nint c_fn(void) { return a_fn(); }\n",
    "src/inc/x.h": "int x_fn(void);\n",
    "src/inc/x.c": '#include "x.h"\n#include "y.h"\nint x_fn(void) { return y_twice(2); }\n',
    "src/inc/y.h": "static inline int y_twice(int v) { return 2 * v; }\nint y_fn(void);\n",
    "src/inc/y.c": '#include "x.h"\n#include "y.h"\nint y_fn(void) { return x_fn(); }\n',
    "src/inc/z.c": '#include "x.h"\nint z_fn(void);\nint z_fn(void) { return x_fn(); }\n',
    "python/src/p.c": "int a_fn(void);\nint p_fn(void);\nint p_fn(void) { return a_fn(); }\n",
    "web/client/src/m.js": "import { n } from './n.js';\nexport const m = () => n;\n",
    "web/client/src/n.js": "import {\n  m,\n} from './m.js';\n"
                           "// import { o } from './o.js';\nexport const n = () => m;\n",
    "web/client/src/o.js": "import { m } from './m.js';\nexport const o = m;\n",
}
# The same tree with each loop cut.
CUT = {
    "src/loop/b.c": "int b_fn(void);\nint b_fn(void) { return 2; }\n",
    "src/inc/y.c": '#include "y.h"\nint y_fn(void) { return y_twice(1); }\n',
    "web/client/src/n.js": "export const n = () => 1;\n",
}

passed = failed = 0


def check(ok, what, output=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}\n{output}")


def write(root, files):
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def build(root, build_dir):
    """Objects named as CMake names them: build/CMakeFiles/T.dir/<source>.o."""
    for path in TREE:
        if path.endswith(".c"):
            obj = os.path.join(build_dir, "CMakeFiles", "fixture.dir", path + ".o")
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            subprocess.run(["cc", "-c", "-O0", "-I", os.path.join(root, "src/inc"),
                            os.path.join(root, path), "-o", obj], check=True)


def run(root, build_dir):
    return subprocess.run([sys.executable, SCRIPT, build_dir, "--root", root],
                          capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        root, build_dir = os.path.join(tmp, "tree"), os.path.join(tmp, "tree", "build")
        write(root, TREE)
        build(root, build_dir)
        r = run(root, build_dir)
        out = r.stdout + r.stderr
        check(r.returncode == 1, "a tree with loops fails (exit 1)", out)
        check("circle of 2 files: src/loop/a.c, src/loop/b.c" in out, "the loop of calls", out)
        check("src/loop/a.c -> src/loop/b.c: b_fn" in out and
              "src/loop/b.c -> src/loop/a.c: a_fn" in out, "its edges name the functions", out)
        check("circle of 2 files: src/inc/x.c, src/inc/y.c" in out,
              "the loop through a header's static inline function", out)
        check('src/inc/x.c -> src/inc/y.c: #include "y.h"' in out, "named by the include", out)
        check("circle of 2 files: web/client/src/m.js, web/client/src/n.js" in out,
              "the loop of imports", out)
        check("web/client/src/n.js -> web/client/src/m.js: { m, } from './m.js'" in out,
              "named by the import, over two lines", out)
        check(out.count("circle of") == 3, "three circles and no more", out)
        for alone in ("src/loop/c.c", "src/inc/z.c", "python/src/p.c", "web/client/src/o.js"):
            check(alone not in out, f"{alone} hangs off a loop without being in one", out)
        write(root, CUT)
        build(root, build_dir)
        r = run(root, build_dir)
        out = r.stdout + r.stderr
        check(r.returncode == 0 and "0 circles" in out, "the tree without loops passes", out)
    print(f"check-circles: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
