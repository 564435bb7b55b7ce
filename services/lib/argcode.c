#include <nvx/argcode.h>

static int is_plain(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == ',' || c == '/' || c == ':' || c == '+' || c == '@';
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

int nvx_arg_decode(char *word)
{
    if (word == 0 || word[0] == '\0') return -1; /* the boot arguments have no empty words */
    if (word[0] == '%' && word[1] == '\0') {     /* the empty argument */
        word[0] = '\0';
        return 0;
    }
    int out = 0;
    for (int in = 0; word[in] != '\0';) {
        unsigned char c = (unsigned char)word[in];
        if (c != '%') {
            if (!is_plain(c)) return -1;
            word[out++] = (char)c;
            in++;
            continue;
        }
        int high = hex_value(word[in + 1]);
        int low = high < 0 ? -1 : hex_value(word[in + 2]);
        if (low < 0 || (high == 0 && low == 0)) return -1;
        word[out++] = (char)(high * 16 + low);
        in += 3;
    }
    word[out] = '\0';
    return out;
}
