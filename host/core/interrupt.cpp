#include "host/core/interrupt.hpp"

#include <unistd.h>
#include <csignal>
#include <cstdlib>

namespace gaeval {

namespace {
volatile std::sig_atomic_t g_interrupts = 0;

extern "C" void on_signal(int) {
    g_interrupts = g_interrupts + 1;
    if (g_interrupts >= 2) _exit(130);
    static const char msg[] =
        "\ngaeval: interrupted; finishing the generation and writing a checkpoint "
        "(interrupt again to stop at once)\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
}
}  // namespace

void install_interrupt_handler() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
}

bool interrupted() { return g_interrupts > 0; }

void clear_interrupt() { g_interrupts = 0; }

}  // namespace gaeval
