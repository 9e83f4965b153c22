// The MPI transport: MPI_Allgather of the sizes, then MPI_Allgatherv of the bytes, on a
// duplicate of MPI_COMM_WORLD. Built only with GAEVAL_MPI (CMake's FindMPI); without it
// make_mpi_transport says so.
#include <cstdio>

#include "host/core/error.hpp"
#include "host/islands/transport.hpp"

#if GAEVAL_HAVE_MPI
#define OMPI_SKIP_MPICXX 1  // the C API only: no C++ bindings (nor their warnings)
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace gaeval::islands {

#if GAEVAL_HAVE_MPI

namespace {

class MpiTransport : public Transport {
  public:
    MpiTransport() {
        int ready = 0;
        MPI_Initialized(&ready);
        if (!ready) {
            int provided = 0;
            MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
            owns_ = true;
        }
        MPI_Comm_dup(MPI_COMM_WORLD, &world_);
        MPI_Comm_rank(world_, &rank_);
        MPI_Comm_size(world_, &size_);
        MPI_Comm node;
        MPI_Comm_split_type(world_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, &local_rank_);
        MPI_Comm_free(&node);
        // A failed collective (a rank that died) ends every process instead of returning codes
        // nobody would act on; mpirun then reports which rank failed.
        MPI_Comm_set_errhandler(world_, MPI_ERRORS_ARE_FATAL);
    }
    ~MpiTransport() override {
        MPI_Comm_free(&world_);
        if (owns_) MPI_Finalize();
    }
    int rank() const override { return rank_; }
    int size() const override { return size_; }
    int local_rank() const override { return local_rank_; }
    std::string name() const override { return "mpi"; }

    std::vector<std::vector<uint8_t>> all_gather(const std::vector<uint8_t>& mine) override {
        const int bytes = static_cast<int>(mine.size());
        if (mine.size() > size_t(1) << 30)
            throw std::runtime_error("islands: a message of more than 1 GiB between ranks");
        std::vector<int> sizes(size_), offsets(size_);
        MPI_Allgather(&bytes, 1, MPI_INT, sizes.data(), 1, MPI_INT, world_);
        long long total = 0;
        for (int r = 0; r < size_; ++r) {
            offsets[r] = static_cast<int>(total);
            total += sizes[r];
        }
        if (total > (1ll << 31) - 1)
            throw std::runtime_error("islands: a gather of more than 2 GiB between ranks");
        std::vector<uint8_t> all(static_cast<size_t>(total));
        MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(), sizes.data(), offsets.data(),
                       MPI_BYTE, world_);
        std::vector<std::vector<uint8_t>> out(size_);
        for (int r = 0; r < size_; ++r)
            out[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + sizes[r]);
        return out;
    }

    void abort(int code) override { MPI_Abort(world_, code); }

  private:
    MPI_Comm world_;
    int rank_ = 0, size_ = 1, local_rank_ = 0;
    bool owns_ = false;
};

}  // namespace

bool mpi_compiled() { return true; }
std::unique_ptr<Transport> make_mpi_transport() { return std::make_unique<MpiTransport>(); }

#else

bool mpi_compiled() { return false; }
std::unique_ptr<Transport> make_mpi_transport() {
    throw InputError(
        "--islands over MPI: this gaeval was built without MPI (GAEVAL_MPI=OFF or "
        "no MPI found: apt install libopenmpi-dev openmpi-bin, then reconfigure)");
}

#endif

}  // namespace gaeval::islands
