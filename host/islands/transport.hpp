// How islands on different ranks talk: one collective, all_gather (every rank's bytes, in rank
// order, to every rank), is all the archipelago needs (statistics, migrants, agreement on
// errors and interruptions). Two implementations: in one process (one rank, the bytes come
// back) and over MPI (host/islands/mpi_transport.cpp, built with GAEVAL_MPI).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gaeval::islands {

class Transport {
  public:
    virtual ~Transport() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    // Rank within this machine (picks the GPU when there are several); 0 in one process.
    virtual int local_rank() const = 0;
    virtual std::string name() const = 0;  // "in-process" or "mpi"
    // Collective: every rank's `mine`, indexed by rank. Synchronizes the ranks.
    virtual std::vector<std::vector<uint8_t>> all_gather(const std::vector<uint8_t>& mine) = 0;
    // Ends every rank's process with `code` (MPI_Abort); a no-op in one process.
    virtual void abort(int code) = 0;
};

class LocalTransport : public Transport {
  public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    int local_rank() const override { return 0; }
    std::string name() const override { return "in-process"; }
    std::vector<std::vector<uint8_t>> all_gather(const std::vector<uint8_t>& mine) override {
        return {mine};
    }
    void abort(int) override {}
};

// True when this binary was built with MPI (GAEVAL_MPI).
bool mpi_compiled();
// True when this process was started by an MPI launcher (mpirun / srun set its variables).
bool launched_by_mpi();

// The transport of this process: MPI when built with it and launched by mpirun, else in one
// process. The MPI one initializes MPI and finalizes it when destroyed.
std::unique_ptr<Transport> make_transport();
std::unique_ptr<Transport> make_mpi_transport();  // InputError in a build without MPI

// Little helpers to pack plain values into the bytes a transport carries.
class ByteWriter {
  public:
    template <class T>
    void put(const T& v) {
        const size_t at = bytes.size();
        bytes.resize(at + sizeof(T));
        std::memcpy(bytes.data() + at, &v, sizeof(T));
    }
    template <class T>
    void put_vector(const std::vector<T>& v) {
        put<uint64_t>(v.size());
        const size_t at = bytes.size();
        bytes.resize(at + v.size() * sizeof(T));
        if (!v.empty()) std::memcpy(bytes.data() + at, v.data(), v.size() * sizeof(T));
    }
    void put_string(const std::string& s) { put_vector(std::vector<char>(s.begin(), s.end())); }
    std::vector<uint8_t> bytes;
};

class ByteReader {
  public:
    explicit ByteReader(const std::vector<uint8_t>& b) : bytes_(b) {}
    template <class T>
    T get() {
        T v;
        need(sizeof(T));
        std::memcpy(&v, bytes_.data() + at_, sizeof(T));
        at_ += sizeof(T);
        return v;
    }
    template <class T>
    std::vector<T> get_vector() {
        const uint64_t n = get<uint64_t>();
        need(n * sizeof(T));
        std::vector<T> v(n);
        if (n) std::memcpy(v.data(), bytes_.data() + at_, n * sizeof(T));
        at_ += n * sizeof(T);
        return v;
    }
    std::string get_string() {
        const std::vector<char> c = get_vector<char>();
        return std::string(c.begin(), c.end());
    }

  private:
    void need(size_t n) const;  // std::runtime_error when the message is shorter
    const std::vector<uint8_t>& bytes_;
    size_t at_ = 0;
};

}  // namespace gaeval::islands
