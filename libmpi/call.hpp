// The MPI call a thread is running, named once by its entry point (entries.cpp) so that
// error reports name it without every implementation repeating its own name.
#pragma once

namespace lwmpi {

const char* current_call();  // "MPI_Send", ...; "MPI" outside of any call

// Names the call for the scope of one entry; nests, so a program's error handler that
// calls MPI leaves the outer call's name in place when it returns.
class CallScope {
public:
    explicit CallScope(const char* name);
    ~CallScope();
    CallScope(const CallScope&) = delete;
    CallScope& operator=(const CallScope&) = delete;

private:
    const char* outer_;
};

}  // namespace lwmpi
