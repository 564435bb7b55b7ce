/* What crt0 runs once the C library is ready. A library that runs the program's main
 * differently (mputil: one thread per MPI rank) defines a strong nvx_program_main. */
int main(int argc, char **argv, char **envp);

__attribute__((weak)) int nvx_program_main(int argc, char **argv, char **envp)
{
    return main(argc, argv, envp);
}
