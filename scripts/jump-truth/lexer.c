/* A lexer with a switch over the character and one over the token kind
 * (ground truth for scripts/x86-jump-truth.sh; written for ssakit,
 * public domain). */
#include <stdio.h>

enum kind { K_EOF, K_IDENT, K_NUM, K_STR, K_LPAREN, K_RPAREN, K_LBRACE,
            K_RBRACE, K_LBRACK, K_RBRACK, K_SEMI, K_COMMA, K_DOT, K_PLUS,
            K_MINUS, K_STAR, K_SLASH, K_PERCENT, K_EQ, K_LT, K_GT, K_BANG,
            K_AMP, K_PIPE, K_CARET, K_TILDE, K_QUESTION, K_COLON, K_BAD };

int next(const char **p) {
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\n') s++;
    int k;
    switch (*s) {
    case 0: k = K_EOF; break;
    case 'a' ... 'z': case 'A' ... 'Z': case '_':
        while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_') s++;
        *p = s; return K_IDENT;
    case '0' ... '9':
        while (*s >= '0' && *s <= '9') s++;
        *p = s; return K_NUM;
    case '"': s++; while (*s && *s != '"') s++; if (*s) s++; *p = s; return K_STR;
    case '(': k = K_LPAREN; break;
    case ')': k = K_RPAREN; break;
    case '{': k = K_LBRACE; break;
    case '}': k = K_RBRACE; break;
    case '[': k = K_LBRACK; break;
    case ']': k = K_RBRACK; break;
    case ';': k = K_SEMI; break;
    case ',': k = K_COMMA; break;
    case '.': k = K_DOT; break;
    case '+': k = K_PLUS; break;
    case '-': k = K_MINUS; break;
    case '*': k = K_STAR; break;
    case '/': k = K_SLASH; break;
    case '%': k = K_PERCENT; break;
    case '=': k = K_EQ; break;
    case '<': k = K_LT; break;
    case '>': k = K_GT; break;
    case '!': k = K_BANG; break;
    case '&': k = K_AMP; break;
    case '|': k = K_PIPE; break;
    case '^': k = K_CARET; break;
    case '~': k = K_TILDE; break;
    case '?': k = K_QUESTION; break;
    case ':': k = K_COLON; break;
    default: k = K_BAD; break;
    }
    *p = s + (k != K_EOF);
    return k;
}

const char *name(enum kind k) {
    switch (k) {
    case K_EOF: return "eof"; case K_IDENT: return "ident"; case K_NUM: return "num";
    case K_STR: return "str"; case K_LPAREN: return "("; case K_RPAREN: return ")";
    case K_LBRACE: return "{"; case K_RBRACE: return "}"; case K_LBRACK: return "[";
    case K_RBRACK: return "]"; case K_SEMI: return ";"; case K_COMMA: return ",";
    case K_DOT: return "."; case K_PLUS: return "+"; case K_MINUS: return "-";
    case K_STAR: return "*"; case K_SLASH: return "/"; case K_PERCENT: return "%";
    default: return "?";
    }
}

long weigh(enum kind k, long x) {
    switch (k) {
    case K_PLUS: return x + 1; case K_MINUS: return x - 3; case K_STAR: return x * 7;
    case K_SLASH: return x / 5; case K_PERCENT: return x % 11; case K_EQ: return x ^ 13;
    case K_LT: return x << 2; case K_GT: return x >> 1; case K_BANG: return !x;
    case K_AMP: return x & 0x55; case K_PIPE: return x | 0x80; default: return 0;
    }
}

int main(void) {
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, stdin);
    buf[n] = 0;
    const char *p = buf;
    long w = 0;
    for (int k; (k = next(&p)) != K_EOF;) { w = weigh(k, w); fputs(name(k), stdout); }
    return (int)w;
}
