/* A bytecode interpreter loop: one switch over the opcode (ground truth
 * for scripts/x86-jump-truth.sh; written for ssakit, public domain). */
#include <stdio.h>
#include <stdlib.h>

enum { PUSH, ADD, SUB, MUL, DIV, MOD, DUP, SWAP, DROP, JMP, JZ, JNZ, LT,
       GT, EQ, NOT, AND, OR, XOR, SHL, SHR, NEG, INC, DEC, LOAD, STORE,
       PRINT, HALT };

long run(const unsigned char *code, long *stack, long *mem) {
    long sp = 0, pc = 0, a, b;
    for (;;) {
        switch (code[pc++]) {
        case PUSH: stack[sp++] = (signed char)code[pc++]; break;
        case ADD: b = stack[--sp]; stack[sp - 1] += b; break;
        case SUB: b = stack[--sp]; stack[sp - 1] -= b; break;
        case MUL: b = stack[--sp]; stack[sp - 1] *= b; break;
        case DIV: b = stack[--sp]; stack[sp - 1] = b ? stack[sp - 1] / b : 0; break;
        case MOD: b = stack[--sp]; stack[sp - 1] = b ? stack[sp - 1] % b : 0; break;
        case DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case SWAP: a = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = a; break;
        case DROP: sp--; break;
        case JMP: pc = code[pc]; break;
        case JZ: pc = stack[--sp] == 0 ? code[pc] : pc + 1; break;
        case JNZ: pc = stack[--sp] != 0 ? code[pc] : pc + 1; break;
        case LT: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] < b; break;
        case GT: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] > b; break;
        case EQ: b = stack[--sp]; stack[sp - 1] = stack[sp - 1] == b; break;
        case NOT: stack[sp - 1] = !stack[sp - 1]; break;
        case AND: b = stack[--sp]; stack[sp - 1] &= b; break;
        case OR: b = stack[--sp]; stack[sp - 1] |= b; break;
        case XOR: b = stack[--sp]; stack[sp - 1] ^= b; break;
        case SHL: b = stack[--sp]; stack[sp - 1] <<= (b & 63); break;
        case SHR: b = stack[--sp]; stack[sp - 1] >>= (b & 63); break;
        case NEG: stack[sp - 1] = -stack[sp - 1]; break;
        case INC: stack[sp - 1]++; break;
        case DEC: stack[sp - 1]--; break;
        case LOAD: stack[sp - 1] = mem[stack[sp - 1] & 255]; break;
        case STORE: mem[stack[sp - 1] & 255] = stack[sp - 2]; sp -= 2; break;
        case PRINT: printf("%ld\n", stack[--sp]); break;
        case HALT: return sp ? stack[sp - 1] : 0;
        default: abort();
        }
    }
}

int main(int argc, char **argv) {
    static unsigned char code[256];
    static long stack[256], mem[256];
    size_t n = fread(code, 1, sizeof code, stdin);
    (void)argc; (void)argv; (void)n;
    return (int)run(code, stack, mem);
}
