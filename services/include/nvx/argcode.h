/* How the launcher (scripts/nvx-run) passes the program's name and arguments through the
 * boot arguments, which are split at spaces: each becomes one word, percent-encoded.
 * Bytes A-Z a-z 0-9 and - _ . , / : + @ stand for themselves, every other byte is %XX
 * (two hex digits), and the empty argument is the lone word "%". Any byte but NUL
 * survives. The Spawn Server decodes them (here, the one decoder; host-tested). */
#ifndef NVX_ARGCODE_H
#define NVX_ARGCODE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes `word` in place (the result is never longer); its length, or -1 if the word is
 * not an encoding (a stray or short %, a bad hex digit, %00, a byte that should have been
 * encoded), leaving `word` unspecified. */
int nvx_arg_decode(char *word);

#ifdef __cplusplus
}
#endif
#endif
