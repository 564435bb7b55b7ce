#!/bin/sh
# Builds newlib 3.3.0 (libc and libm only) for user programs: rv64gc/lp64d, medany.
# Usage: scripts/build-newlib.sh PREFIX   (the Makefile passes build/newlib)
#
# The runtime, not newlib, provides the system calls and the locks, and every thread has
# its own struct _reent reached through __getreent(): hence the configure options below.
set -eu

tarball=/usr/src/newlib/newlib-3.3.0.tar.xz
target=riscv64-unknown-elf

if [ $# -ne 1 ]; then
    echo "usage: $0 PREFIX" >&2
    exit 2
fi
prefix=$1
# Built already by this script as it is now; a changed script (its options) builds again.
if [ "$prefix/.built" -nt "$0" ]; then
    exit 0
fi

rm -rf "$prefix"
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)  # configure wants an absolute prefix
work=$(mktemp -d "$(dirname "$prefix")/newlib-build.XXXXXX")
trap 'echo "build-newlib: failed; build tree kept in $work" >&2' EXIT

echo "build-newlib: building newlib into $prefix (about a minute)"
tar -xJf "$tarball" -C "$work"
# Debian's tarball unpacks to newlib-salsa/, upstream's to newlib-3.3.0/: take the one dir.
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d)
mkdir "$work/obj"
cd "$work/obj"

# c99 formats so that %zu, %jd and %hhd work; long long is free on lp64. The small struct
# _reent (464 bytes instead of 1,888, its rarely used parts allocated when first used): a
# 2 MiB cluster runs up to 16 ranks, each a thread with its own. Global stdin, stdout and
# stderr, shared by the threads under their locks: a small reent's own would be three
# FILEs a thread from the heap, taken at its first printf (a crash if the heap is full
# then) and never given back when it exits.
"$src/configure" --target=$target --prefix="$prefix" --disable-multilib \
    --disable-newlib-supplied-syscalls --enable-newlib-retargetable-locking \
    --enable-newlib-io-c99-formats --enable-newlib-io-long-long --disable-nls \
    --enable-newlib-reent-small --enable-newlib-global-stdio-streams \
    CFLAGS_FOR_TARGET="-O2 -g -mcmodel=medany -D__DYNAMIC_REENT__" >configure.log 2>&1 \
    || { tail -20 configure.log >&2; exit 1; }

# Only the newlib target: libgloss (board support and its own syscalls) is not wanted.
make -j2 all-target-newlib >build.log 2>&1 || { tail -30 build.log >&2; exit 1; }
make install-target-newlib >install.log 2>&1 || { tail -30 install.log >&2; exit 1; }

# The library was compiled with __DYNAMIC_REENT__; programs must see the same _REENT
# (stdout, errno) as the library, so the installed configuration header says so too.
cat >>"$prefix/$target/include/newlib.h" <<'EOF'

/* nvx: newlib was built with -D__DYNAMIC_REENT__: _REENT is __getreent(), per thread. */
#ifndef __DYNAMIC_REENT__
#define __DYNAMIC_REENT__
#endif
EOF

for f in "$prefix/$target/lib/libc.a" "$prefix/$target/lib/libm.a" \
         "$prefix/$target/include/stdio.h"; do
    if [ ! -e "$f" ]; then
        echo "build-newlib: $f is missing after install" >&2
        exit 1
    fi
done

cd /
rm -rf "$work"
trap - EXIT
touch "$prefix/.built"
echo "build-newlib: done"
