// ELF64 executable checks (kernel/proc/elf.cpp) on images built in memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "kernel/abi/nvx_abi.h"
#include "kernel/config.hpp"
#include "kernel/proc/elf.hpp"

namespace {
using namespace nvx;
using namespace nvx::kernel::elf;

// The user window the kernel passes to elf::parse (process.cpp).
constexpr u64 kLow = nvx::kernel::kUserBase;
constexpr u64 kPrivate = NVX_USER_PRIVATE_BASE;                     // the private region's slot
constexpr u64 kHigh = NVX_USER_PRIVATE_BASE + NVX_USER_PRIVATE_MAX;  // its end: stacks lie above
constexpr int kEinval = -NVX_EINVAL;

constexpr u32 kPtLoad = 1, kPtNote = 4, kPtGnuStack = 0x6474e551;
constexpr u32 kRX = kFlagRead | kFlagExec, kRW = kFlagRead | kFlagWrite;
constexpr size_t kEhdrSize = 64, kPhdrSize = 56;

void put(std::vector<u8>& v, size_t at, u64 value, int bytes) {
    if (v.size() < at + bytes) v.resize(at + bytes, 0);
    for (int i = 0; i < bytes; i++) v[at + i] = static_cast<u8>(value >> (8 * i));  // little endian
}

struct Phdr {
    u32 type = kPtLoad;
    u32 flags = kRX;
    u64 offset = 0;
    u64 vaddr = 0;
    u64 filesz = 0;
    u64 memsz = 0;
    u64 align = 0x1000;
};

// A static RISC-V executable; every field can be bent before build().
struct ElfBuilder {
    u8 ident_class = 2;  // ELFCLASS64
    u8 ident_data = 1;   // little endian
    u8 magic[4] = {0x7f, 'E', 'L', 'F'};
    u16 type = 2;        // ET_EXEC
    u16 machine = 243;   // EM_RISCV
    u64 entry = 0x10000;
    u64 phoff = kEhdrSize;
    u16 phentsize = kPhdrSize;
    int phnum = -1;      // -1: the number of segments
    std::vector<Phdr> segments;
    size_t min_size = 0;

    std::vector<u8> build() const {
        std::vector<u8> v(kEhdrSize, 0);
        for (int i = 0; i < 4; i++) v[i] = magic[i];
        v[4] = ident_class;
        v[5] = ident_data;
        v[6] = 1;  // EV_CURRENT
        put(v, 16, type, 2);
        put(v, 18, machine, 2);
        put(v, 20, 1, 4);
        put(v, 24, entry, 8);
        put(v, 32, phoff, 8);
        put(v, 40, 0, 8);  // no section headers
        put(v, 52, kEhdrSize, 2);
        put(v, 54, phentsize, 2);
        put(v, 56, phnum < 0 ? segments.size() : static_cast<u64>(phnum), 2);
        for (size_t i = 0; i < segments.size(); i++) {
            const Phdr& p = segments[i];
            size_t at = phoff + i * kPhdrSize;
            put(v, at + 0, p.type, 4);
            put(v, at + 4, p.flags, 4);
            put(v, at + 8, p.offset, 8);
            put(v, at + 16, p.vaddr, 8);
            put(v, at + 24, p.vaddr, 8);  // paddr
            put(v, at + 32, p.filesz, 8);
            put(v, at + 40, p.memsz, 8);
            put(v, at + 48, p.align, 8);
        }
        size_t size = std::max(v.size(), min_size);
        for (const Phdr& p : segments)
            if (p.filesz < (1ull << 20) && p.offset < (1ull << 20)) size = std::max<size_t>(size, p.offset + p.filesz);
        v.resize(size, 0);
        const u64 headers_end = phoff + segments.size() * kPhdrSize;
        for (const Phdr& p : segments)  // recognisable file contents, where they fit
            if (p.offset >= headers_end && p.offset < v.size() && p.filesz <= v.size() - p.offset)
                for (u64 i = 0; i < p.filesz; i++) v[p.offset + i] = static_cast<u8>(i);
        return v;
    }
};

// A typical program: text RX, data RW with .bss, a GNU_STACK marker.
ElfBuilder typical() {
    ElfBuilder b;
    b.entry = 0x10080;
    b.segments = {
        {.type = kPtLoad, .flags = kRX, .offset = 0x1000, .vaddr = 0x10000, .filesz = 0x800, .memsz = 0x800},
        {.type = kPtLoad, .flags = kRW, .offset = 0x2000, .vaddr = 0x12000, .filesz = 0x100, .memsz = 0x3000},
        {.type = kPtGnuStack, .flags = kRW, .offset = 0, .vaddr = 0, .filesz = 0, .memsz = 0},
    };
    return b;
}

// Parses from an exactly-sized heap copy, so the sanitizer sees any read past `size`.
int parse_image(const std::vector<u8>& bytes, Image* out, u64 low = kLow, u64 high = kHigh) {
    auto copy = std::make_unique<u8[]>(bytes.size());
    std::copy(bytes.begin(), bytes.end(), copy.get());
    return parse(copy.get(), bytes.size(), low, kPrivate, high, out);
}
int parse_image(const ElfBuilder& b) {
    Image image{};
    return parse_image(b.build(), &image);
}

// ---------------------------------------------------------------- valid images

TEST(Elf, ParsesATypicalExecutable) {
    Image image{};
    ASSERT_EQ(parse_image(typical().build(), &image), 0);
    EXPECT_EQ(image.entry, 0x10080u);
    ASSERT_EQ(image.segment_count, 2u);  // GNU_STACK is not loadable
    const Segment& text = image.segments[0];
    EXPECT_EQ(text.vaddr, 0x10000u);
    EXPECT_EQ(text.memsz, 0x800u);
    EXPECT_EQ(text.filesz, 0x800u);
    EXPECT_EQ(text.offset, 0x1000u);
    EXPECT_EQ(text.flags, kRX);
    const Segment& data = image.segments[1];
    EXPECT_EQ(data.vaddr, 0x12000u);
    EXPECT_EQ(data.memsz, 0x3000u);
    EXPECT_EQ(data.filesz, 0x100u);
    EXPECT_EQ(data.offset, 0x2000u);
    EXPECT_EQ(data.flags, kRW);
    EXPECT_EQ(image.end, 0x15000u);
}

TEST(Elf, EndIsTheHighestSegmentEnd) {
    ElfBuilder b = typical();
    std::swap(b.segments[0], b.segments[1]);  // order in the file does not matter
    Image image{};
    ASSERT_EQ(parse_image(b.build(), &image), 0);
    EXPECT_EQ(image.end, 0x15000u);
    EXPECT_EQ(image.segments[0].vaddr, 0x12000u);
}

TEST(Elf, SkipsNonLoadAndEmptySegments) {
    ElfBuilder b = typical();
    b.segments.push_back({.type = kPtNote, .flags = kFlagRead, .offset = 0x1000, .vaddr = 0x10000, .filesz = 0x20, .memsz = 0x20});
    b.segments.push_back({.type = kPtLoad, .flags = kRW, .offset = 0x3000, .vaddr = 0x1, .filesz = 0, .memsz = 0});
    Image image{};
    ASSERT_EQ(parse_image(b.build(), &image), 0);
    EXPECT_EQ(image.segment_count, 2u);
}

TEST(Elf, BssOnlySegment) {
    ElfBuilder b = typical();
    b.segments.push_back({.type = kPtLoad, .flags = kRW, .offset = 0, .vaddr = 0x20000, .filesz = 0, .memsz = 0x10000});
    Image image{};
    ASSERT_EQ(parse_image(b.build(), &image), 0);
    EXPECT_EQ(image.segment_count, 3u);
    EXPECT_EQ(image.end, 0x30000u);
}

TEST(Elf, SegmentsAtTheEdgesOfTheUserWindow) {
    ElfBuilder b;
    b.entry = kLow;
    b.segments = {
        {.type = kPtLoad, .flags = kRX, .offset = 0x1000, .vaddr = kLow, .filesz = 0x100, .memsz = 0x1000},
        {.type = kPtLoad, .flags = kRW, .offset = 0x2000, .vaddr = kHigh - 0x2000, .filesz = 0x10, .memsz = 0x2000},
    };
    Image image{};
    ASSERT_EQ(parse_image(b.build(), &image), 0);
    EXPECT_EQ(image.end, kLow + 0x1000);
    EXPECT_EQ(image.private_end, kHigh);
}

TEST(Elf, PrivateSegmentsEndApart) {
    ElfBuilder b = typical();
    b.segments.push_back({.type = kPtLoad, .flags = kRW, .offset = 0x2000, .vaddr = kPrivate, .filesz = 0x10, .memsz = 0x3000});
    Image image{};
    ASSERT_EQ(parse_image(b.build(), &image), 0);
    Image without{};
    ASSERT_EQ(parse_image(typical().build(), &without), 0);
    EXPECT_EQ(image.end, without.end);  // the heap starts after the shared segments
    EXPECT_EQ(image.private_end, kPrivate + 0x3000);
    EXPECT_EQ(without.private_end, 0u);
}

TEST(Elf, RejectsASegmentAcrossThePrivateRegionsStart) {
    ElfBuilder b = typical();
    b.segments[1].vaddr = kPrivate - 0x1000;  // memsz 0x3000 runs into the private region
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, EntryAtTheLastByteOfText) {
    ElfBuilder b = typical();
    b.entry = 0x10000 + 0x800 - 1;
    EXPECT_EQ(parse_image(b), 0);
    b.entry = 0x10000;
    EXPECT_EQ(parse_image(b), 0);
}

TEST(Elf, EntryInASecondExecutableSegment) {
    ElfBuilder b = typical();
    b.segments.push_back({.type = kPtLoad, .flags = kFlagExec, .offset = 0x3000, .vaddr = 0x40000, .filesz = 0x100, .memsz = 0x100});
    b.entry = 0x40010;
    EXPECT_EQ(parse_image(b), 0);
}

TEST(Elf, ExactlyMaxSegments) {
    ElfBuilder b;
    b.entry = 0x10000;
    for (u32 i = 0; i < kMaxSegments; i++)
        b.segments.push_back({.type = kPtLoad, .flags = i == 0 ? kRX : kRW, .offset = 0x1000 + 0x1000 * i,
                              .vaddr = 0x10000 + 0x1000 * i, .filesz = 0x10, .memsz = 0x1000});
    Image image{};
    ASSERT_EQ(parse_image(b.build(), &image), 0);
    EXPECT_EQ(image.segment_count, kMaxSegments);
    EXPECT_EQ(image.end, 0x10000u + 0x1000u * kMaxSegments);
}

// ---------------------------------------------------------------- header errors

TEST(Elf, RejectsBadMagic) {
    for (int i = 0; i < 4; i++) {
        ElfBuilder b = typical();
        b.magic[i] ^= 0x20;
        EXPECT_EQ(parse_image(b), kEinval) << "magic byte " << i;
    }
}

TEST(Elf, Rejects32BitClass) {
    ElfBuilder b = typical();
    b.ident_class = 1;  // ELFCLASS32
    EXPECT_EQ(parse_image(b), kEinval);
    b.ident_class = 0;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsBigEndian) {
    ElfBuilder b = typical();
    b.ident_data = 2;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsWrongMachine) {
    ElfBuilder b = typical();
    b.machine = 62;  // x86-64
    EXPECT_EQ(parse_image(b), kEinval);
    b.machine = 0;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsNonExecutableTypes) {
    ElfBuilder b = typical();
    b.type = 3;  // ET_DYN (PIE / shared object)
    EXPECT_EQ(parse_image(b), kEinval);
    b.type = 1;  // ET_REL
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsWrongProgramHeaderSize) {
    ElfBuilder b = typical();
    b.phentsize = 32;
    EXPECT_EQ(parse_image(b), kEinval);
    b.phentsize = 64;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsTruncatedHeader) {
    std::vector<u8> bytes = typical().build();
    Image image{};
    for (size_t size : {size_t{0}, size_t{4}, size_t{16}, kEhdrSize - 1}) {
        std::vector<u8> cut(bytes.begin(), bytes.begin() + size);
        EXPECT_EQ(parse_image(cut, &image), kEinval) << size;
    }
}

TEST(Elf, RejectsProgramHeadersPastTheEnd) {
    std::vector<u8> bytes = typical().build();
    Image image{};
    std::vector<u8> cut(bytes.begin(), bytes.begin() + kEhdrSize + 2 * kPhdrSize);  // 3 headers announced
    EXPECT_EQ(parse_image(cut, &image), kEinval);

    ElfBuilder b = typical();
    b.phnum = 0xffff;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsProgramHeaderOffsetOverflow) {
    ElfBuilder b = typical();
    std::vector<u8> bytes = b.build();
    put(bytes, 32, ~u64{0} - 8, 8);  // phoff + phnum * 56 wraps around
    Image image{};
    EXPECT_EQ(parse_image(bytes, &image), kEinval);
    put(bytes, 32, bytes.size(), 8);
    EXPECT_EQ(parse_image(bytes, &image), kEinval);
}

TEST(Elf, RejectsNoLoadableSegment) {
    ElfBuilder b;
    EXPECT_EQ(parse_image(b), kEinval);  // phnum 0
    b.segments = {{.type = kPtNote, .flags = kRX, .offset = 0x100, .vaddr = 0x10000, .filesz = 4, .memsz = 4}};
    b.entry = 0x10000;
    EXPECT_EQ(parse_image(b), kEinval);
}

// ---------------------------------------------------------------- segment errors

TEST(Elf, RejectsSegmentBelowTheUserWindow) {
    ElfBuilder b = typical();
    b.segments[1].vaddr = kLow - 0x1000;
    EXPECT_EQ(parse_image(b), kEinval);
    b = typical();
    b.segments[0].vaddr = 0;  // page zero
    b.entry = 0x80;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsSegmentAboveTheUserWindow) {
    ElfBuilder b = typical();
    b.segments[1].vaddr = kHigh - 0x1000;  // memsz 0x3000 runs into the stack
    EXPECT_EQ(parse_image(b), kEinval);
    b.segments[1].vaddr = kHigh;
    EXPECT_EQ(parse_image(b), kEinval);
    b.segments[1].vaddr = 0xffffffffc0000000ull;  // the kernel
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsSegmentWhoseEndWrapsAround) {
    ElfBuilder b = typical();
    b.segments[1].vaddr = 0x12000;
    b.segments[1].memsz = ~u64{0} - 0x1000;  // vaddr + memsz wraps to a small address
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsFileSizeLargerThanMemorySize) {
    ElfBuilder b = typical();
    b.segments[1].filesz = 0x3001;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsSegmentDataPastTheEndOfTheFile) {
    ElfBuilder b = typical();
    std::vector<u8> bytes = b.build();
    Image image{};
    // Cut the file so that the data segment's bytes are missing.
    std::vector<u8> cut(bytes.begin(), bytes.begin() + 0x2080);
    EXPECT_EQ(parse_image(cut, &image), kEinval);

    b = typical();
    b.segments[1].offset = 0x1000000;  // far past the end
    EXPECT_EQ(parse_image(b), kEinval);

    b = typical();
    b.segments[1].offset = ~u64{0} - 0x10;  // offset + filesz wraps around
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsEntryOutsideExecutableSegments) {
    ElfBuilder b = typical();
    b.entry = 0x12000;  // in the data segment (RW)
    EXPECT_EQ(parse_image(b), kEinval);
    b.entry = 0x10800;  // one past the text segment
    EXPECT_EQ(parse_image(b), kEinval);
    b.entry = 0x0ffff;  // just below
    EXPECT_EQ(parse_image(b), kEinval);
    b.entry = 0;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsEntryInATextSegmentWithoutExecFlag) {
    ElfBuilder b = typical();
    b.segments[0].flags = kFlagRead;
    EXPECT_EQ(parse_image(b), kEinval);
}

TEST(Elf, RejectsTooManySegments) {
    ElfBuilder b;
    b.entry = 0x10000;
    for (u32 i = 0; i < kMaxSegments + 1; i++)
        b.segments.push_back({.type = kPtLoad, .flags = i == 0 ? kRX : kRW, .offset = 0x1000 + 0x1000 * i,
                              .vaddr = 0x10000 + 0x1000 * i, .filesz = 0x10, .memsz = 0x1000});
    Image image{};
    EXPECT_EQ(parse_image(b.build(), &image), kEinval);
    EXPECT_LE(image.segment_count, kMaxSegments);  // never writes past segments[]
}

TEST(Elf, NonLoadSegmentsDoNotCountTowardsTheLimit) {
    ElfBuilder b;
    b.entry = 0x10000;
    for (u32 i = 0; i < kMaxSegments; i++)
        b.segments.push_back({.type = kPtLoad, .flags = i == 0 ? kRX : kRW, .offset = 0x1000 + 0x1000 * i,
                              .vaddr = 0x10000 + 0x1000 * i, .filesz = 0x10, .memsz = 0x1000});
    for (int i = 0; i < 4; i++)
        b.segments.push_back({.type = kPtNote, .flags = kFlagRead, .offset = 0x1000, .vaddr = 0, .filesz = 4, .memsz = 4});
    EXPECT_EQ(parse_image(b), 0);
}

// ---------------------------------------------------------------- W^X

TEST(Elf, RefusesAWritableAndExecutableSegment) {
    ElfBuilder b = typical();
    b.segments[1].flags = kFlagRead | kFlagWrite | kFlagExec;
    EXPECT_EQ(parse_image(b), kErrWritableAndExecutable);
    b.segments[1].flags = kFlagWrite | kFlagExec;  // without read, too
    EXPECT_EQ(parse_image(b), kErrWritableAndExecutable);
    b = typical();
    b.segments[0].flags = kFlagRead | kFlagWrite | kFlagExec;  // the text segment made writable
    EXPECT_EQ(parse_image(b), kErrWritableAndExecutable);
}

TEST(Elf, WritableAndExecutableNonLoadSegmentsDoNotMatter) {
    ElfBuilder b = typical();
    b.segments[2].flags = kFlagRead | kFlagWrite | kFlagExec;  // GNU_STACK is not loaded
    EXPECT_EQ(parse_image(b), 0);
}
}  // namespace
