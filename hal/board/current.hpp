// The board this image is built for, chosen by the one build flag NVX_BOARD_TABLE.
#pragma once
#include "hal/board/board.hpp"

namespace nvx::board {
inline constexpr const Board& kBoard = NVX_BOARD_TABLE;
}
