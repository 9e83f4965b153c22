#include "host/io/checkpoint.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "host/core/error.hpp"
#include "host/core/hash.hpp"
#include "host/io/run_folder.hpp"

namespace gaeval {

namespace {

constexpr char kMagic[8] = {'G', 'A', 'E', 'V', 'A', 'L', 'C', 'K'};
constexpr uint32_t kVersion = 1;

struct Out {
    std::vector<uint8_t> bytes;
    void raw(const void* p, std::size_t n) {
        const uint8_t* b = static_cast<const uint8_t*>(p);
        bytes.insert(bytes.end(), b, b + n);
    }
    template <class T>
    void pod(T v) {
        raw(&v, sizeof v);
    }
};

struct In {
    const std::vector<uint8_t>& bytes;
    std::size_t pos = 0;
    const std::string& origin;
    void raw(void* p, std::size_t n) {
        if (n > bytes.size() - pos) throw InputError(origin + ": corrupt checkpoint (truncated)");
        if (n == 0) return;  // an empty section: its vector's data() may be null (memcpy's UB)
        std::memcpy(p, bytes.data() + pos, n);
        pos += n;
    }
    template <class T>
    T pod() {
        T v;
        raw(&v, sizeof v);
        return v;
    }
};

}  // namespace

void throw_blob_error(const std::string& origin, const std::string& name,
                      const std::string& problem) {
    throw InputError(origin + ": corrupt checkpoint (section '" + name + "' " + problem + ")");
}

void save_checkpoint(const Checkpoint& c, const std::string& path) {
    Out out;
    out.raw(kMagic, sizeof kMagic);
    out.pod(kVersion);
    const std::string header = c.header.dump();
    out.pod(static_cast<uint64_t>(header.size()));
    out.raw(header.data(), header.size());
    out.pod(static_cast<uint32_t>(c.blobs.size()));
    for (const auto& [name, data] : c.blobs) {
        out.pod(static_cast<uint32_t>(name.size()));
        out.raw(name.data(), name.size());
        out.pod(static_cast<uint64_t>(data.size()));
        out.raw(data.data(), data.size());
    }
    out.pod(fnv1a(out.bytes.data(), out.bytes.size()));

    io::write_bytes_atomic(path, out.bytes.data(), out.bytes.size());
}

Checkpoint load_checkpoint(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw InputError(path + ": no checkpoint to resume from");
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                               std::istreambuf_iterator<char>());
    if (bytes.size() < sizeof kMagic + 4 + 8 + 4 + 8 ||
        std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw InputError(path + ": not a gaeval checkpoint");
    uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
    if (stored != fnv1a(bytes.data(), bytes.size() - 8))
        throw InputError(path + ": corrupt checkpoint (checksum mismatch)");
    bytes.resize(bytes.size() - 8);
    In in{bytes, sizeof kMagic, path};
    const uint32_t version = in.pod<uint32_t>();
    if (version != kVersion)
        throw InputError(path + ": checkpoint version " + std::to_string(version) +
                         " not supported (expected " + std::to_string(kVersion) + ")");
    Checkpoint c;
    std::string header;
    const uint64_t header_size = in.pod<uint64_t>();
    if (header_size > bytes.size()) throw InputError(path + ": corrupt checkpoint (header)");
    header.resize(header_size);
    in.raw(header.data(), header_size);
    try {
        c.header = nlohmann::json::parse(header);
    } catch (const nlohmann::json::exception&) {
        throw InputError(path + ": corrupt checkpoint (header is not JSON)");
    }
    const uint32_t count = in.pod<uint32_t>();
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t name_size = in.pod<uint32_t>();
        if (name_size > 256) throw InputError(path + ": corrupt checkpoint (section name)");
        std::string name(name_size, '\0');
        in.raw(name.data(), name_size);
        const uint64_t size = in.pod<uint64_t>();
        if (size > bytes.size() - in.pos)
            throw InputError(path + ": corrupt checkpoint (truncated)");
        auto& blob = c.blobs[name];
        blob.resize(size);
        in.raw(blob.data(), size);
    }
    return c;
}

}  // namespace gaeval
