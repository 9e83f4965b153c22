// Checkpoint files: a JSON header (kind, configuration fingerprint, generation, small state)
// and named binary blobs (populations), closed by a 64-bit FNV-1a checksum. Written to a
// temporary file and renamed, so a crash mid-write leaves the previous checkpoint intact.
//
//   "GAEVALCK" | u32 version | u64 header bytes | header JSON | u32 blob count |
//   per blob: u32 name bytes | name | u64 bytes | data | ... | u64 checksum of all before
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gaeval {

struct Checkpoint {
    nlohmann::json header;
    std::map<std::string, std::vector<uint8_t>> blobs;

    template <class T>
    void put(const std::string& name, const std::vector<T>& v) {
        auto& b = blobs[name];
        b.resize(v.size() * sizeof(T));
        if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    }
    // Copies blob `name` into v; InputError when missing or of the wrong size for T.
    template <class T>
    void get(const std::string& name, std::vector<T>& v, const std::string& origin) const;
};

// Atomic write (temporary file + rename); throws InputError when the folder is unwritable.
void save_checkpoint(const Checkpoint& c, const std::string& path);

// Reads and verifies magic, version and checksum: a corrupt or truncated file is an
// InputError naming the file and the problem.
Checkpoint load_checkpoint(const std::string& path);

// Detail for get<T>().
[[noreturn]] void throw_blob_error(const std::string& origin, const std::string& name,
                                   const std::string& problem);

template <class T>
void Checkpoint::get(const std::string& name, std::vector<T>& v, const std::string& origin) const {
    auto it = blobs.find(name);
    if (it == blobs.end()) throw_blob_error(origin, name, "missing");
    if (it->second.size() % sizeof(T) != 0) throw_blob_error(origin, name, "has a bad size");
    v.resize(it->second.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), it->second.data(), it->second.size());
}

}  // namespace gaeval
