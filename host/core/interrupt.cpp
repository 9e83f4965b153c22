#include "host/core/interrupt.hpp"

#include <unistd.h>
#include <csignal>
#include <cstdlib>

namespace gaeval {

namespace {
volatile std::sig_atomic_t g_interrupts = 0;

extern "C" void on_signal(int) {
    g_interrupts = g_interrupts + 1;
    if (g_interrupts >= 2) {
        static const char msg[] = "gaeval: interrupted twice: stopped at once\n";
        ssize_t ignored = write(2, msg, sizeof msg - 1);
        (void)ignored;
        _exit(130);
    }
}
}  // namespace

void install_interrupt_handler() {
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
}

bool interrupted() { return g_interrupts > 0; }

void clear_interrupt() { g_interrupts = 0; }

void request_interrupt() { g_interrupts = 1; }

}  // namespace gaeval
