// Graceful interruption: the first SIGINT/SIGTERM sets a flag that long loops poll between
// generations (they write a checkpoint and exit 130); a second one ends the process at once.
#pragma once

namespace gaeval {

void install_interrupt_handler();
bool interrupted();
void clear_interrupt();  // for tests

}  // namespace gaeval
