// GoogleTest's name for a test parameterized by a board: the board's name with every
// character a test name may not hold ('-' in mppa256-xl) as '_'.
#pragma once
#include <string>

#include "hal/board/board.hpp"

inline std::string board_test_name(const nvx::board::Board* b)
{
    std::string name(b->name);
    for (char& c : name)
        if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9')) c = '_';
    return name;
}
