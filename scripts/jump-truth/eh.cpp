// A switch inside a try/catch (ground truth for scripts/x86-jump-truth.sh;
// written for ssakit, public domain).
#include <cstdio>
#include <stdexcept>

int step(int op, int x) {
    switch (op) {
    case 0: return x + 1;
    case 1: return x * 3;
    case 2: if (x > 100) throw std::runtime_error("big"); return x - 2;
    case 3: return x / 2;
    case 4: return x ^ 0x5a;
    case 5: return -x;
    case 6: return x << 1;
    case 7: throw std::out_of_range("seven");
    default: return x;
    }
}

int main(int argc, char **) {
    int x = argc;
    for (int op = 0; op < 64; op++) {
        try {
            x = step((op * 7 + x) & 15, x);
        } catch (const std::runtime_error &e) {
            std::puts(e.what());
            x = 1;
        } catch (...) {
            x = 2;
        }
    }
    return x & 127;
}
