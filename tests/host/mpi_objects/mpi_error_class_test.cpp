// Error classes: every class of MPI 3.1 has a distinct text naming it; codes are classes.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <set>
#include <string>

#include "libmpi/error_class.hpp"
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

TEST(ErrorClass, EveryClassHasADistinctTextStartingWithItsName) {
    std::set<std::string> texts;
    for (int code = MPI_SUCCESS; code <= MPI_ERR_LASTCODE; code++) {
        char text[MPI_MAX_ERROR_STRING];
        int length = -1;
        ASSERT_EQ(MPI_Error_string(code, text, &length), MPI_SUCCESS) << code;
        EXPECT_EQ(length, static_cast<int>(strlen(text)));
        EXPECT_LT(length, MPI_MAX_ERROR_STRING);
        EXPECT_EQ(strncmp(text, "MPI_", 4), 0) << text;
        texts.insert(text);
        int error_class = -1;
        ASSERT_EQ(MPI_Error_class(code, &error_class), MPI_SUCCESS);
        EXPECT_EQ(error_class, code);
    }
    EXPECT_EQ(texts.size(), static_cast<size_t>(MPI_ERR_LASTCODE + 1));
}

TEST(ErrorClass, TextsNameTheirClass) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    ASSERT_EQ(MPI_Error_string(MPI_ERR_TRUNCATE, text, &length), MPI_SUCCESS);
    EXPECT_EQ(strncmp(text, "MPI_ERR_TRUNCATE:", 17), 0) << text;
    ASSERT_EQ(MPI_Error_string(MPI_ERR_UNSUPPORTED_OPERATION, text, &length), MPI_SUCCESS);
    EXPECT_EQ(strncmp(text, "MPI_ERR_UNSUPPORTED_OPERATION:", 30), 0) << text;
    EXPECT_STREQ(lwmpi::error_class_string(MPI_SUCCESS), "MPI_SUCCESS: no error");
}

TEST(ErrorClass, InvalidCodesAndArgumentsAreErrArg) {
    char text[MPI_MAX_ERROR_STRING];
    int length = 0, error_class = 0;
    EXPECT_EQ(MPI_Error_string(-1, text, &length), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Error_string(MPI_ERR_LASTCODE + 1, text, &length), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Error_string(MPI_ERR_COMM, nullptr, &length), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Error_class(1000, &error_class), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Error_class(MPI_ERR_COMM, nullptr), MPI_ERR_ARG);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Error_class");
    EXPECT_EQ(lwmpi::error_class_string(MPI_ERR_LASTCODE + 1), nullptr);
}

}  // namespace
