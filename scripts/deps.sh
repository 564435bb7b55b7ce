#!/usr/bin/env bash
# `make deps`: installs what the project needs from Debian's packages (only what is
# missing) and builds newlib once into build/newlib. Safe to run again: it then does
# nothing. Needs root (or sudo) only when something is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(make gcc g++ cmake googletest libgtest-dev xz-utils python3 gnuplot-nox
          qemu-system-misc gcc-riscv64-unknown-elf newlib-source)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "deps: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
scripts/build-newlib.sh build/newlib
