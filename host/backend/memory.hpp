// Host memory figures for "too little memory" errors before allocating.
#pragma once

#include <cstdint>
#include <string>

namespace gaeval {

// MemAvailable from /proc/meminfo in bytes (0 when unknown).
uint64_t available_host_memory();

// "1.50 GiB"
std::string human_bytes(double bytes);

}  // namespace gaeval
