/* Switches in less common shapes: over a 16-bit and an 8-bit value, in a
 * loop that keeps the table's base in a register, over a difference of
 * masked values (ground truth for scripts/x86-jump-truth.sh; written for
 * ssakit, public domain). */
#include <stdio.h>

__attribute__((noinline)) int by_short(unsigned short s) {
    switch ((unsigned short)(s - 1000)) {
    case 0: return 3; case 1: return 9; case 2: return 27; case 3: return 81;
    case 4: return 243; case 5: return 729; case 6: return 11; case 7: return 13;
    default: return -1;
    }
}

__attribute__((noinline)) int by_byte(const unsigned char *p) {
    switch (*p) {
    case 'a': return 1; case 'b': return 4; case 'c': return 9; case 'd': return 16;
    case 'e': return 25; case 'f': return 36; case 'g': return 49; case 'h': return 64;
    default: return 0;
    }
}

__attribute__((noinline)) long looped(const unsigned char *p, long n) {
    long acc = 0;
    for (long i = 0; i < n; i++) {
        switch (p[i] & 7) {
        case 0: acc += 1; break; case 1: acc *= 3; break; case 2: acc ^= 5; break;
        case 3: acc -= 7; break; case 4: acc <<= 1; break; case 5: acc >>= 1; break;
        case 6: acc = -acc; break; case 7: acc |= 0x100; break;
        }
    }
    return acc;
}

__attribute__((noinline)) int by_difference(unsigned a, unsigned b) {
    switch ((a & 3) + 3 - (b & 3)) {
    case 0: return 10; case 1: return 21; case 2: return 32; case 3: return 43;
    case 4: return 54; case 5: return 65; case 6: return 76;
    }
    return 0;
}

int main(int argc, char **argv) {
    unsigned char buf[64] = "abcdefgh";
    long r = by_short((unsigned short)(argc + 999)) + by_byte(buf + argc)
           + looped(buf, argc) + by_difference(argc, argc * 3);
    (void)argv;
    printf("%ld\n", r);
    return 0;
}
