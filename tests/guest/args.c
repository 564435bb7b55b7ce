/* Launch arguments from QEMU -append reach main(argc, argv) on every compute cluster,
 * exactly: test args passes plain ones; test args_odd launches this program as the file
 * "np=3 x.elf" (a name the Spawn Server once took for an option) with arguments holding
 * spaces, quotes, '=', '%', leading dashes, a lone "--", a tab, a newline and UTF-8. */
#include <stdio.h>
#include <string.h>
#include "check.h"

static const char *const kPlain[] = {"args", "alpha", "beta=2", "--gamma"};
static const char *const kOdd[] = {"np=3 x", "a b", "--", "-np", "4", "x=y", "'\"", "%41",
                                   "\xc3\xa9 \xc3\xbc", "tab\there", "line\nbreak"};

static void expect_argv(int argc, char **argv, const char *const *want, int count)
{
    CHECK_EQ(argc, count);
    for (int i = 0; i < argc && i < count; i++) {
        if (strcmp(argv[i], want[i]) != 0) printf("argv[%d] is '%s', expected '%s'\n", i, argv[i], want[i]);
        CHECK(strcmp(argv[i], want[i]) == 0);
    }
}

int main(int argc, char **argv)
{
    if (argc > 0 && strcmp(argv[0], kOdd[0]) == 0) expect_argv(argc, argv, kOdd, sizeof kOdd / sizeof *kOdd);
    else expect_argv(argc, argv, kPlain, sizeof kPlain / sizeof *kPlain);
    CHECK(argv[argc] == 0);
    return check_finish("args");
}
