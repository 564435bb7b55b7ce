/* W^X: linked so that its data segment is writable AND executable
 * (mk/programs.mk derives the link script from runtime/user.ld). The kernel must refuse it
 * at exec; if it ran, it says so and fails. */
#include <stdio.h>

int main(void)
{
    printf("FAIL wx_segment: a program with a writable and executable segment ran\n");
    return 1;
}
