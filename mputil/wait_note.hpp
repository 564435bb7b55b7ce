// A rank's wait note: the text the kernel prints for the rank's thread if the board is
// found deadlocked (NVX_SYS_WAIT_NOTE), naming the rank, the operation, the peer and the
// tag. Shown only just before the rank sleeps and hidden when it wakes, so a fast path
// pays nothing and a note never outlives its wait. A rank that sleeps for the same thing
// again (a ping-pong) shows the text it already wrote: writing it costs more than a
// small message.
#pragma once

#include "state.hpp"

namespace mputil {

class WaitNote {
public:
    explicit WaitNote(RankState* me) : out_(me->wait_note) { text("rank ").number(me->world_rank).text(": "); }
    ~WaitNote() { out_[n_] = '\0'; }

    WaitNote& text(const char* s)
    {
        while (*s != '\0' && n_ + 1 < NVX_WAIT_NOTE_MAX) out_[n_++] = *s++;
        return *this;
    }
    WaitNote& number(long v)
    {
        char digits[24];
        int k = 0;
        unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
        do digits[k++] = (char)('0' + u % 10); while ((u /= 10) != 0);
        if (v < 0) text("-");
        while (k > 0 && n_ + 1 < NVX_WAIT_NOTE_MAX) out_[n_++] = digits[--k];
        return *this;
    }
    // "from rank S, tag T, context C" with MPI's wildcards named.
    WaitNote& peer(const char* dir, int rank, int tag, uint32_t context)
    {
        text(dir);
        if (rank == kAnySource) text(" any rank");
        else text(" rank ").number(rank);
        if (tag == kAnyTag) text(", any tag");
        else text(", tag ").number(tag);
        return text(", context ").number((long)context);
    }

private:
    char* out_;
    int n_ = 0;
};

// Shows the note for `k` (what: a whole text when peer is false, else the operation
// before "rank S, tag T, context C"; more: other operations waited for too).
inline void show_wait_note(RankState* me, const WaitKey& k)
{
    if (me->wait_first != '\0' && k == me->wait_key) {
        me->wait_note[0] = me->wait_first;
        return;
    }
    {
        WaitNote note(me);
        if (!k.peer) note.text(k.what);
        else note.peer(k.what, k.rank, k.tag, k.context);
        if (k.more > 0) note.text(" (+").number(k.more).text(")");
    }
    me->wait_key = k;
    me->wait_first = me->wait_note[0];
}

inline void show_wait_note(RankState* me, const char* text) { show_wait_note(me, WaitKey{text, false, 0, 0, 0, 0}); }

inline void clear_wait_note(RankState* me) { me->wait_note[0] = '\0'; }

}  // namespace mputil
