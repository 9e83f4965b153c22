#include "host/islands/transport.hpp"

#include <cstdlib>
#include <stdexcept>

namespace gaeval::islands {

void ByteReader::need(size_t n) const {
    if (at_ + n > bytes_.size())
        throw std::runtime_error("islands: a message from another rank is truncated");
}

bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
        if (std::getenv(v)) return true;
    return false;
}

std::unique_ptr<Transport> make_transport() {
    if (mpi_compiled() && launched_by_mpi()) return make_mpi_transport();
    return std::make_unique<LocalTransport>();
}

}  // namespace gaeval::islands
