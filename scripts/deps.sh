#!/usr/bin/env bash
# `make deps`: installs what the project needs from Debian's packages (only what is
# missing) and builds newlib once into build/newlib. Safe to run again: it then does
# nothing. Needs root (or sudo) only when something is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(make gcc g++ cmake googletest libgtest-dev xz-utils python3 gnuplot-nox
          qemu-system-misc gcc-riscv64-unknown-elf newlib-source)
scripts/install-packages.sh "${packages[@]}"
scripts/build-newlib.sh build/newlib
