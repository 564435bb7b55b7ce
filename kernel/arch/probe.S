# probe_load / probe_store(address) -> a0 = 0 if the access worked, 1 if it trapped
# (a1 = scause). kernel_trap recognises the two probe instructions and resumes at
# probe_done, so the self-tests can touch forbidden memory and survive.
    .text
    .globl probe_load, probe_store, probe_load_insn, probe_store_insn, probe_done
probe_load:
    mv t0, a0
    li a0, 0
    li a1, 0
probe_load_insn:
    ld t1, 0(t0)
    ret
probe_store:
    mv t0, a0
    li a0, 0
    li a1, 0
probe_store_insn:
    sd zero, 0(t0)
probe_done:
    ret
