// Checks for mputil's guest tests (check_core.h): counters per rank (thread_local, so
// they also prove TLS), one result line per rank: "rank R: NAME: K checks, F failed".
#pragma once
#include <mputil/mputil.hpp>

#define CHECK_WHO "rank"
#define CHECK_ID mputil::world_rank
#define CHECK_LOCAL thread_local
#include "check_core.h"
