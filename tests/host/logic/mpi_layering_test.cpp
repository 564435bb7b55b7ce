// libmpi/ is OS-free (DESIGN.md section 7): its sources include only mpi.h,
// libmpi's own headers, mputil's interface and C library headers; never nvx/*, kernel/*,
// runtime/*, services/*, hal/*, ikc/* or support/*, and no C++ standard library.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;

const std::set<std::string> kCHeaders = {
    "stddef.h", "stdint.h", "stdbool.h", "stdarg.h", "limits.h", "float.h", "stdalign.h",
    "string.h", "stdlib.h", "stdio.h",
};

// Why an include line is not allowed, or "" when it is.
std::string violation(const std::string& target, bool angled) {
    if (target == "mpi.h" || target == "mpi_functions.h") return "";  // libmpi/include
    if (target.rfind("libmpi/", 0) == 0 || target.rfind("mputil/", 0) == 0) {
        if (target.rfind("mputil/", 0) == 0 && target.find(".hpp") == std::string::npos) {
            return "mputil is reached through its headers only";
        }
        return "";
    }
    if (angled) return kCHeaders.count(target) != 0 ? "" : "not a C library header";
    // A quoted name without a folder is a sibling in libmpi/ (checked to exist below).
    return target.find('/') == std::string::npos ? "" : "outside libmpi/ and mputil/";
}

TEST(Layering, LibmpiIncludesNothingOsDependent) {
    const fs::path libmpi = fs::path(NVX_ROOT_DIR) / "libmpi";
    ASSERT_TRUE(fs::is_directory(libmpi));
    int files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(libmpi)) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".cpp" && ext != ".hpp" && ext != ".h" && ext != ".c") continue;
        files++;
        std::ifstream in(entry.path());
        std::string line;
        while (std::getline(in, line)) {
            const size_t hash = line.find_first_not_of(" \t");
            if (hash == std::string::npos || line.compare(hash, 8, "#include") != 0) continue;
            const size_t open = line.find_first_of("<\"", hash + 8);
            ASSERT_NE(open, std::string::npos) << entry.path() << ": " << line;
            const bool angled = line[open] == '<';
            const size_t close = line.find(angled ? '>' : '"', open + 1);
            ASSERT_NE(close, std::string::npos) << entry.path() << ": " << line;
            const std::string target = line.substr(open + 1, close - open - 1);
            const std::string why = violation(target, angled);
            EXPECT_EQ(why, "") << entry.path() << " includes " << target;
            if (!angled && target.find('/') == std::string::npos) {
                EXPECT_TRUE(fs::exists(entry.path().parent_path() / target))
                    << entry.path() << " includes " << target;
            }
        }
    }
    EXPECT_GT(files, 0);
}

}  // namespace
