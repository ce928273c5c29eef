"""setup.py — the package ramparts from the source tree: `/usr/bin/python3 -m pip install ./python`
(from the repository's root). CMake (python/CMakeLists.txt) compiles the C library into the
extension module ramparts._ramparts; setuptools installs it with the pure-Python files.
Needs a C compiler, CMake, pkg-config, libcjson-dev and python3-dev; numpy to run."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"^project\(ramparts VERSION ([0-9.]+)", text, re.M).group(1)


class CMakeBuild(build_ext):
    """Builds the one extension with CMake and puts it where setuptools expects it."""

    def build_extension(self, ext):
        if not (ROOT / "src" / "core").is_dir():
            raise RuntimeError(f"{ROOT} is not the Ramparts source tree: install from it")
        build = Path(self.build_temp).resolve() / "cmake"
        package = build / "package"
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(
            [
                "cmake",
                "-S",
                str(HERE),
                "-B",
                str(build),
                "-DCMAKE_BUILD_TYPE=Release",
                f"-DPython3_EXECUTABLE={sys.executable}",
                f"-DRP_PY_PACKAGE={package}",
            ],
            check=True,
        )
        subprocess.run(["cmake", "--build", str(build), "-j", jobs], check=True)
        built = next((package / "ramparts").glob("_ramparts*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    name="ramparts",
    version=project_version(),
    description="Five wall-and-castle games with hidden information, from the Ramparts C library",
    license="MIT",
    packages=["ramparts"],
    ext_modules=[Extension("ramparts._ramparts", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
