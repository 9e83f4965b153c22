#include "host/io/run_folder.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "host/core/error.hpp"

namespace gaeval::io {

namespace fs = std::filesystem;

namespace {

// The "kind" of the run in `dir` (from run.json), or "" when there is none or it is unreadable.
std::string run_kind(const std::string& dir) {
    std::ifstream in(fs::path(dir) / "run.json");
    if (!in) return "";
    try {
        const nlohmann::json run = nlohmann::json::parse(in);
        return run.is_object() ? run.value("kind", std::string()) : "";
    } catch (const nlohmann::json::exception&) {
        return "";
    }
}

}  // namespace

void check_run_folder_free(const std::string& dir, const std::string& flag) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) return;
    if (!fs::is_directory(dir, ec))
        throw InputError(flag + " " + dir + ": is a file, not a folder; choose another folder");
    if (fs::is_empty(dir, ec)) return;
    const std::string kind = run_kind(dir);
    if (!kind.empty())
        throw InputError(flag + " " + dir + ": already holds a " + kind +
                         " run (resume it with gaeval " + kind + " --resume " + dir +
                         ", or choose another folder)");
    throw InputError(flag + " " + dir + ": is not empty; choose another folder");
}

void check_run_folder_kind(const std::string& dir, const std::string& kind) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw InputError("--resume " + dir + ": no such folder");
    if (!fs::exists(fs::path(dir) / "run.json"))
        throw InputError("--resume " + dir + ": no run.json in that folder");
    const std::string found = run_kind(dir);
    if (found != kind)
        throw InputError("--resume " + dir + ": holds " +
                         (found.empty() ? std::string("no readable run") : "a " + found + " run") +
                         ", not a " + kind + " run");
}

std::string choose_run_folder(const std::string& requested, const std::string& kind) {
    if (!requested.empty()) {
        check_run_folder_free(requested);
        return requested;
    }
    for (int n = 1; n < 100000; ++n) {
        char name[64];
        std::snprintf(name, sizeof name, "runs/%s-%03d", kind.c_str(), n);
        std::error_code ec;
        if (!fs::exists(name, ec)) return name;
    }
    throw InputError("runs/: no free numbered folder for " + kind + "; give --out");
}

void create_run_folder(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError("--out " + dir + ": cannot create the folder: " + ec.message());
    const std::string probe = (fs::path(dir) / ".write-test").string();
    std::ofstream f(probe);
    if (!f) throw InputError("--out " + dir + ": folder is not writable");
    f.close();
    fs::remove(probe, ec);
}

void prepare_out_dir(const std::string& dir) { create_run_folder(dir); }

void write_text_atomic(const std::string& path, const std::string& text) {
    write_bytes_atomic(path, text.data(), text.size());
}

void write_bytes_atomic(const std::string& path, const void* data, std::size_t bytes) {
    const std::string tmp = path + ".tmp";
    std::error_code ec;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw InputError(path + ": cannot write (" + tmp + " cannot be created)");
        out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
        out.flush();
        out.close();
        if (!out) {
            fs::remove(tmp, ec);
            throw InputError(path + ": cannot write (disk full or file size limit?); the "
                                    "previous file is unchanged");
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw InputError(path + ": cannot write (" + ec.message() + ")");
    }
}

std::string file_size_text(const std::string& path) {
    std::error_code ec;
    const double bytes = static_cast<double>(fs::file_size(path, ec));
    if (ec) return "?";
    char buf[32];
    if (bytes >= 1e9)
        std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
    else if (bytes >= 1e6)
        std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1e3);
    return buf;
}

}  // namespace gaeval::io
