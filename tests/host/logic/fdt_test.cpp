// Flattened device tree facts (hal/firmware/fdt.cpp) from blobs built by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hal/firmware/fdt.hpp"

namespace {
using namespace nvx;
using nvx::fdt::Facts;
using nvx::fdt::read_facts;

constexpr u32 kMagic = 0xd00dfeed;
constexpr u32 kBeginNode = 1, kEndNode = 2, kProp = 3, kNop = 4, kEnd = 9;
constexpr u32 kHeaderSize = 40;

// Header field offsets.
constexpr size_t kOffMagic = 0, kOffTotalSize = 4, kOffStruct = 8, kOffStrings = 12, kOffRsvmap = 16,
                 kOffVersion = 20, kOffLastComp = 24, kOffBootCpu = 28, kOffStringsSize = 32, kOffStructSize = 36;

void put_be32(std::vector<u8>& v, u32 x) {
    for (int shift = 24; shift >= 0; shift -= 8) v.push_back(static_cast<u8>(x >> shift));
}
void set_be32(std::vector<u8>& v, size_t at, u32 x) {
    for (int i = 0; i < 4; i++) v[at + i] = static_cast<u8>(x >> (24 - 8 * i));
}
u32 get_be32(const std::vector<u8>& v, size_t at) {
    return (u32{v[at]} << 24) | (u32{v[at + 1]} << 16) | (u32{v[at + 2]} << 8) | v[at + 3];
}
void pad4(std::vector<u8>& v) {
    while (v.size() % 4) v.push_back(0);
}

// Builds a version-17 blob: header, empty reserve map, structure block, strings block.
class FdtBuilder {
public:
    FdtBuilder& begin(const std::string& name) {
        put_be32(struct_, kBeginNode);
        struct_.insert(struct_.end(), name.begin(), name.end());
        struct_.push_back(0);
        pad4(struct_);
        return *this;
    }
    FdtBuilder& end() {
        put_be32(struct_, kEndNode);
        return *this;
    }
    FdtBuilder& prop(const std::string& name, const std::vector<u8>& value) {
        put_be32(struct_, kProp);
        put_be32(struct_, static_cast<u32>(value.size()));
        put_be32(struct_, string_offset(name));
        struct_.insert(struct_.end(), value.begin(), value.end());
        pad4(struct_);
        return *this;
    }
    FdtBuilder& prop_string(const std::string& name, const std::string& value) {
        std::vector<u8> bytes(value.begin(), value.end());
        bytes.push_back(0);
        return prop(name, bytes);
    }
    FdtBuilder& prop_u32(const std::string& name, u32 value) {
        std::vector<u8> bytes;
        put_be32(bytes, value);
        return prop(name, bytes);
    }
    FdtBuilder& nop() {
        put_be32(struct_, kNop);
        return *this;
    }
    FdtBuilder& token(u32 raw) {
        put_be32(struct_, raw);
        return *this;
    }
    FdtBuilder& bytes(const std::vector<u8>& raw) {
        struct_.insert(struct_.end(), raw.begin(), raw.end());
        return *this;
    }

    // The finished blob; `end_token` false leaves the structure block without FDT_END.
    std::vector<u8> build(bool end_token = true) const {
        std::vector<u8> structure = struct_;
        if (end_token) put_be32(structure, kEnd);
        std::vector<u8> blob(kHeaderSize, 0);
        const u32 rsvmap = kHeaderSize;          // 8-byte aligned
        const u32 struct_off = rsvmap + 16;      // one all-zero reserve entry
        const u32 strings_off = struct_off + static_cast<u32>(structure.size());
        blob.resize(struct_off, 0);
        blob.insert(blob.end(), structure.begin(), structure.end());
        blob.insert(blob.end(), strings_.begin(), strings_.end());
        set_be32(blob, kOffMagic, kMagic);
        set_be32(blob, kOffTotalSize, static_cast<u32>(blob.size()));
        set_be32(blob, kOffStruct, struct_off);
        set_be32(blob, kOffStrings, strings_off);
        set_be32(blob, kOffRsvmap, rsvmap);
        set_be32(blob, kOffVersion, 17);
        set_be32(blob, kOffLastComp, 16);
        set_be32(blob, kOffBootCpu, 0);
        set_be32(blob, kOffStringsSize, static_cast<u32>(strings_.size()));
        set_be32(blob, kOffStructSize, static_cast<u32>(structure.size()));
        return blob;
    }

private:
    u32 string_offset(const std::string& name) {
        auto it = offsets_.find(name);
        if (it != offsets_.end()) return it->second;
        u32 off = static_cast<u32>(strings_.size());
        strings_.insert(strings_.end(), name.begin(), name.end());
        strings_.push_back(0);
        offsets_[name] = off;
        return off;
    }

    std::vector<u8> struct_;
    std::vector<u8> strings_;
    std::map<std::string, u32> offsets_;
};

// Parses from an exactly-sized heap copy, so the sanitizer sees any read past `capacity`.
Facts parse(const std::vector<u8>& blob, size_t capacity) {
    auto copy = std::make_unique<u8[]>(capacity);
    std::memcpy(copy.get(), blob.data(), std::min(capacity, blob.size()));
    Facts f = read_facts(copy.get(), capacity);
    // bootargs points into the blob: turn it into something that outlives the copy.
    static thread_local std::string saved;
    if (f.bootargs != nullptr) {
        EXPECT_GE(f.bootargs, reinterpret_cast<const char*>(copy.get()));
        EXPECT_LT(f.bootargs + f.bootargs_length, reinterpret_cast<const char*>(copy.get() + capacity));
        saved.assign(f.bootargs, f.bootargs_length);
        EXPECT_EQ(f.bootargs[f.bootargs_length], '\0');
        f.bootargs = saved.c_str();
    }
    return f;
}
Facts parse(const std::vector<u8>& blob) { return parse(blob, blob.size()); }

// What QEMU `virt` produces, in miniature.
FdtBuilder& add_cpus(FdtBuilder& b, u32 count) {
    b.begin("cpus").prop_u32("#address-cells", 1).prop_u32("#size-cells", 0).prop_u32("timebase-frequency", 10000000);
    for (u32 i = 0; i < count; i++) {
        b.begin("cpu@" + std::to_string(i))
            .prop_string("device_type", "cpu")
            .prop_u32("reg", i)
            .prop_string("status", "okay")
            .prop_string("compatible", "riscv")
            .begin("interrupt-controller")
            .prop_u32("#interrupt-cells", 1)
            .end()
            .end();
    }
    b.begin("cpu-map").begin("cluster0");
    for (u32 i = 0; i < count; i++) b.begin("core" + std::to_string(i)).prop_u32("cpu", i + 1).end();
    b.end().end();
    return b.end();
}

std::vector<u8> qemu_like(u32 cpus, const std::string& bootargs) {
    FdtBuilder b;
    b.begin("").prop_u32("#address-cells", 2).prop_u32("#size-cells", 2).prop_string("compatible", "riscv-virtio");
    b.begin("chosen").prop_string("bootargs", bootargs).prop_string("stdout-path", "/soc/serial@10000000").end();
    b.begin("memory@80000000").prop_string("device_type", "memory").end();
    add_cpus(b, cpus);
    b.begin("soc").begin("serial@10000000").prop_u32("clock-frequency", 3686400).end().end();
    b.end();
    return b.build();
}

// ---------------------------------------------------------------- valid trees

TEST(Fdt, ReadsBootargsAndCpuCount) {
    Facts f = parse(qemu_like(5, "selftest -- /bin/demo 3"));
    EXPECT_TRUE(f.valid);
    ASSERT_NE(f.bootargs, nullptr);
    EXPECT_STREQ(f.bootargs, "selftest -- /bin/demo 3");
    EXPECT_EQ(f.bootargs_length, 23u);
    EXPECT_EQ(f.cpu_count, 5u);
}

TEST(Fdt, BootargsPointIntoTheBlob) {
    std::vector<u8> blob = qemu_like(1, "hello");
    Facts f = read_facts(blob.data(), blob.size());
    ASSERT_TRUE(f.valid);
    ASSERT_NE(f.bootargs, nullptr);
    const char* start = reinterpret_cast<const char*>(blob.data());
    EXPECT_GE(f.bootargs, start + get_be32(blob, kOffStruct));
    EXPECT_LT(f.bootargs, start + get_be32(blob, kOffStrings));
    EXPECT_EQ(std::string(f.bootargs), "hello");
}

TEST(Fdt, CountsManyCpus) {
    Facts f = parse(qemu_like(288, ""));  // the mppa256 board
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.cpu_count, 288u);
}

TEST(Fdt, EmptyBootargs) {
    Facts f = parse(qemu_like(2, ""));
    EXPECT_TRUE(f.valid);
    ASSERT_NE(f.bootargs, nullptr);
    EXPECT_STREQ(f.bootargs, "");
    EXPECT_EQ(f.bootargs_length, 0u);
}

TEST(Fdt, CpusBeforeChosenAndNopsAnywhere) {
    FdtBuilder b;
    b.nop().begin("").nop();
    add_cpus(b, 3);
    b.nop().begin("chosen").nop().prop_string("bootargs", "-- prog").nop().end().nop();
    b.end().nop();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.cpu_count, 3u);
    ASSERT_NE(f.bootargs, nullptr);
    EXPECT_STREQ(f.bootargs, "-- prog");
}

TEST(Fdt, BootargsAfterAChildNodeOfChosen) {
    FdtBuilder b;
    b.begin("").begin("chosen").begin("opensbi-domains").prop_string("bootargs", "nested").end();
    b.prop_string("bootargs", "direct").end().end();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    ASSERT_NE(f.bootargs, nullptr);
    EXPECT_STREQ(f.bootargs, "direct");
}

TEST(Fdt, OnlyChosenBootargsCount) {
    FdtBuilder b;
    b.begin("").prop_string("bootargs", "at root");
    b.begin("soc").begin("chosen").prop_string("bootargs", "deep chosen").end().end();
    b.begin("chosen").begin("child").prop_string("bootargs", "child of chosen").end().end();
    b.begin("other").prop_string("bootargs", "other node").end();
    b.end();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
    EXPECT_EQ(f.bootargs_length, 0u);
}

TEST(Fdt, OnlyCpuNodesUnderCpusCount) {
    FdtBuilder b;
    b.begin("");
    b.begin("soc").begin("cpu@7").end().end();  // wrong parent
    b.begin("cpu@8").end();                      // wrong depth
    b.begin("cpus").begin("cpu-map").end().begin("cpu@0").begin("cpu@1").end().end().begin("cpux").end().end();
    b.end();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.cpu_count, 1u);
}

TEST(Fdt, MissingChosen) {
    FdtBuilder b;
    b.begin("");
    add_cpus(b, 4);
    b.end();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
    EXPECT_EQ(f.bootargs_length, 0u);
    EXPECT_EQ(f.cpu_count, 4u);
}

TEST(Fdt, ChosenWithoutBootargs) {
    FdtBuilder b;
    b.begin("").begin("chosen").prop_string("stdout-path", "/uart").end().end();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
    EXPECT_EQ(f.cpu_count, 0u);
}

TEST(Fdt, UnterminatedBootargsAreIgnored) {
    FdtBuilder b;
    b.begin("").begin("chosen").prop("bootargs", {'a', 'b', 'c'}).end().end();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
}

TEST(Fdt, EmptyBootargsPropertyIsIgnored) {
    FdtBuilder b;
    b.begin("").begin("chosen").prop("bootargs", {}).end().end();
    Facts f = parse(b.build());
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
}

TEST(Fdt, CapacityLargerThanTheBlobIsFine) {
    std::vector<u8> blob = qemu_like(2, "x");
    Facts f = parse(blob, blob.size() + 4096);
    EXPECT_TRUE(f.valid);
    EXPECT_EQ(f.cpu_count, 2u);
}

// ---------------------------------------------------------------- broken blobs

TEST(Fdt, BadMagic) {
    std::vector<u8> blob = qemu_like(2, "selftest");
    set_be32(blob, kOffMagic, 0xedfe0dd0);  // byte-swapped
    Facts f = parse(blob);
    EXPECT_FALSE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
    EXPECT_EQ(f.cpu_count, 0u);
    set_be32(blob, kOffMagic, 0);
    EXPECT_FALSE(parse(blob).valid);
}

TEST(Fdt, BlobShorterThanAHeader) {
    std::vector<u8> blob = qemu_like(1, "x");
    EXPECT_FALSE(parse(blob, 39).valid);
    EXPECT_FALSE(parse(blob, 4).valid);
}

TEST(Fdt, TotalSizeLargerThanCapacity) {
    std::vector<u8> blob = qemu_like(2, "selftest");
    EXPECT_FALSE(parse(blob, blob.size() - 1).valid);  // the blob was cut short
    EXPECT_FALSE(parse(blob, 64).valid);
    set_be32(blob, kOffTotalSize, static_cast<u32>(blob.size() + 100));
    Facts f = parse(blob);
    EXPECT_FALSE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
}

TEST(Fdt, BlocksOutsideTotalSize) {
    std::vector<u8> good = qemu_like(2, "selftest");
    std::vector<u8> blob = good;
    set_be32(blob, kOffStructSize, get_be32(blob, kOffStructSize) + 4096);
    EXPECT_FALSE(parse(blob).valid);

    blob = good;
    set_be32(blob, kOffStringsSize, get_be32(blob, kOffStringsSize) + 1);
    EXPECT_FALSE(parse(blob).valid);

    blob = good;
    set_be32(blob, kOffStruct, 0xfffffff0);  // offset + size must not wrap around
    EXPECT_FALSE(parse(blob).valid);

    blob = good;
    set_be32(blob, kOffStrings, 0xffffffff);
    EXPECT_FALSE(parse(blob).valid);
}

TEST(Fdt, MissingEndToken) {
    FdtBuilder b;
    b.begin("").begin("chosen").prop_string("bootargs", "x").end().end();
    EXPECT_FALSE(parse(b.build(/*end_token=*/false)).valid);
}

TEST(Fdt, StructureBlockCutShort) {
    std::vector<u8> blob = qemu_like(3, "selftest");
    u32 size = get_be32(blob, kOffStructSize);
    for (u32 cut : {4u, 8u, 12u, size / 2, size - 4}) {
        std::vector<u8> cut_blob = blob;
        set_be32(cut_blob, kOffStructSize, cut);
        EXPECT_FALSE(parse(cut_blob).valid) << "struct size " << cut;
    }
}

TEST(Fdt, UnbalancedNodes) {
    FdtBuilder open;
    open.begin("").begin("chosen").end();  // root never closed
    EXPECT_FALSE(parse(open.build()).valid);

    FdtBuilder extra;
    extra.begin("").end().end();  // one END_NODE too many
    EXPECT_FALSE(parse(extra.build()).valid);
}

TEST(Fdt, UnknownToken) {
    FdtBuilder b;
    b.begin("").token(7).end();
    EXPECT_FALSE(parse(b.build()).valid);
}

TEST(Fdt, PropertyRunningPastTheEnd) {
    FdtBuilder b;
    b.begin("").begin("chosen");
    b.prop_string("bootargs", "x");  // registers the name at string offset 0
    b.token(kProp).token(0x100).token(0).bytes({'a', 'b', 'c', 0});  // claims 256 bytes, has 4
    Facts f = parse(b.build(/*end_token=*/false));
    EXPECT_FALSE(f.valid);
}

TEST(Fdt, PropertyLengthNearFourGigabytes) {
    FdtBuilder b;
    b.begin("").begin("chosen").prop_string("bootargs", "x");
    b.token(kProp).token(0xfffffffc).token(0).token(0);
    EXPECT_FALSE(parse(b.build()).valid);
}

TEST(Fdt, PropertyHeaderCutShort) {
    FdtBuilder b;
    b.begin("").token(kProp).token(4);  // no name offset, no value
    EXPECT_FALSE(parse(b.build(/*end_token=*/false)).valid);
}

TEST(Fdt, PropertyNameOutsideTheStringsBlock) {
    FdtBuilder b;
    b.begin("").begin("chosen").prop_string("bootargs", "x");
    b.token(kProp).token(4).token(0x1000).token(0).end().end();
    EXPECT_FALSE(parse(b.build()).valid);
}

TEST(Fdt, NodeNameRunningPastTheEnd) {
    FdtBuilder b;
    b.begin("").token(kBeginNode).bytes({'c', 'h', 'o', 's'});  // no NUL before the block ends
    Facts f = parse(b.build(/*end_token=*/false));
    EXPECT_FALSE(f.valid);
}
TEST(Fdt, PropertyNameNotTerminatedInsideTheStringsBlock) {
    FdtBuilder b;
    b.begin("").begin("chosen").prop_string("bootargs", "x").end().end();
    std::vector<u8> blob = b.build();
    // The strings block ("bootargs\0") ends the blob: drop its NUL. Reading the name
    // must not run past the strings block (and here, past the blob itself).
    ASSERT_EQ(blob.back(), 0);
    blob.pop_back();
    set_be32(blob, kOffTotalSize, static_cast<u32>(blob.size()));
    set_be32(blob, kOffStringsSize, get_be32(blob, kOffStringsSize) - 1);
    Facts f = parse(blob);
    EXPECT_FALSE(f.valid);
    EXPECT_EQ(f.bootargs, nullptr);
}
}  // namespace
