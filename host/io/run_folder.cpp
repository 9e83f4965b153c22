#include "host/io/run_folder.hpp"

#include <filesystem>
#include <fstream>

#include "host/core/error.hpp"

namespace gaeval::io {

namespace fs = std::filesystem;

void prepare_out_dir(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError("--out " + dir + ": cannot create directory: " + ec.message());
    const std::string probe = (fs::path(dir) / ".write-test").string();
    std::ofstream f(probe);
    if (!f) throw InputError("--out " + dir + ": directory is not writable");
    f.close();
    fs::remove(probe, ec);
}

void write_text_atomic(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << text;
        if (!out) throw InputError(path + ": cannot write");
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw InputError(path + ": cannot write (" + ec.message() + ")");
}

}  // namespace gaeval::io
