#include "host/cli/common.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "host/core/error.hpp"

namespace gaeval::cli {

void add_common_options(cxxopts::Options& options, uint64_t default_seed) {
    options.add_options("Common")("backend",
                                  "auto | cpu | cuda (auto picks cuda when a GPU is present)",
                                  cxxopts::value<std::string>()->default_value("auto"))(
        "threads", "cpu backend threads (0 = all cores, at most 1024)",
        cxxopts::value<std::string>()->default_value("0"))(
        "seed", "random seed: one seed, one result on any backend",
        cxxopts::value<std::string>()->default_value(std::to_string(default_seed)))(
        "json", "print the result as one JSON object on the last stdout line")("h,help",
                                                                               "print this help");
}

namespace {

// cxxopts quotes names in curly quotes: the text between them, or "" when there are none.
std::string quoted_name(const std::string& msg) {
    const auto open = msg.find("\xe2\x80\x98"), close = msg.find("\xe2\x80\x99");
    if (open == std::string::npos || close == std::string::npos || close < open) return "";
    return msg.substr(open + 3, close - open - 3);
}

// The message with straight quotes instead of cxxopts' curly ones.
std::string straight_quotes(std::string msg) {
    for (const char* curly : {"\xe2\x80\x98", "\xe2\x80\x99"}) {
        for (auto at = msg.find(curly); at != std::string::npos; at = msg.find(curly))
            msg.replace(at, 3, "'");
    }
    return msg;
}

// A flag given twice ("--depth 3 --depth 4") is refused: which one was meant is a guess.
void refuse_repeated_flags(const cxxopts::ParseResult& result) {
    const auto& given = result.arguments();
    for (std::size_t i = 0; i < given.size(); ++i) {
        for (std::size_t j = i + 1; j < given.size(); ++j) {
            if (given[j].key() != given[i].key()) continue;
            throw InputError("--" + given[i].key() + " given twice ('" + given[i].value() +
                             "', then '" + given[j].value() + "'): give it once");
        }
    }
}

}  // namespace

cxxopts::ParseResult parse(cxxopts::Options& options, int argc, char** argv) {
    try {
        auto result = options.parse(argc, argv);
        if (!result.unmatched().empty())
            throw InputError("unexpected argument '" + result.unmatched().front() + "'");
        refuse_repeated_flags(result);
        return result;
    } catch (const cxxopts::exceptions::no_such_option& e) {
        const std::string name = quoted_name(e.what());
        const std::string flag = name.size() == 1 ? "-" + name : "--" + name;
        throw InputError("unknown option " + flag + "; " + options.program() +
                         " --help lists them");
    } catch (const cxxopts::exceptions::incorrect_argument_type& e) {
        // "Argument 'many' failed to parse": name the flag that carried the value.
        const std::string msg = e.what();
        const auto open = msg.find("\xe2\x80\x98"), close = msg.find("\xe2\x80\x99");
        if (open != std::string::npos && close != std::string::npos) {
            const std::string value = msg.substr(open + 3, close - open - 3);
            for (int i = 1; i < argc; ++i) {
                const std::string arg = argv[i];
                const auto eq = arg.find('=');
                if (arg.rfind("--", 0) == 0 && eq != std::string::npos &&
                    arg.substr(eq + 1) == value)
                    throw InputError(arg.substr(0, eq) + ": '" + value + "' is not a valid value");
                if (arg == value && i > 1 && std::string(argv[i - 1]).rfind("-", 0) == 0)
                    throw InputError(std::string(argv[i - 1]) + ": '" + value +
                                     "' is not a valid value");
            }
        }
        throw InputError(straight_quotes(msg));
    } catch (const cxxopts::exceptions::exception& e) {
        throw InputError(straight_quotes(e.what()));
    }
}

CommonOptions read_common(const cxxopts::ParseResult& result) {
    CommonOptions c;
    try {
        c.backend = result["backend"].as<std::string>();
        c.threads = static_cast<int>(read_integer_flag(result, "threads", 0, kMaxThreads));
        c.seed = read_unsigned_flag(result, "seed");
        c.json = result.count("json") > 0;
    } catch (const cxxopts::exceptions::exception& e) {
        throw InputError(e.what());
    }
    return c;
}

namespace {

// The text of flag `name` (a default counts as a value); InputError when absent.
std::string flag_text(const cxxopts::ParseResult& result, const std::string& name,
                      const std::string& expected) {
    try {
        return result[name].as<std::string>();
    } catch (const cxxopts::exceptions::exception&) {
        throw InputError("--" + name + ": required, " + expected);
    }
}

}  // namespace

int64_t read_integer_flag(const cxxopts::ParseResult& result, const std::string& name, int64_t min,
                          int64_t max) {
    const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
    const std::string text = flag_text(result, name, "an integer in " + range);
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(text[0])))
        throw InputError("--" + name + " '" + text + "': expected an integer in " + range);
    if (errno == ERANGE || value < min || value > max)
        throw InputError("--" + name + " " + text + ": must be in " + range);
    return value;
}

uint64_t read_unsigned_flag(const cxxopts::ParseResult& result, const std::string& name) {
    const std::string what = "an integer in [0, 18446744073709551615]";
    const std::string text = flag_text(result, name, what);
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || !std::isdigit(static_cast<unsigned char>(text[0])))
        throw InputError("--" + name + " '" + text + "': expected " + what);
    if (errno == ERANGE) throw InputError("--" + name + " " + text + ": must be " + what);
    return value;
}

double read_real_flag(const cxxopts::ParseResult& result, const std::string& name, double min,
                      double max) {
    char range[96];
    std::snprintf(range, sizeof range, "[%g, %g]", min, max);
    const std::string text = flag_text(result, name, std::string("a number in ") + range);
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(text[0])) ||
        !std::isfinite(value))
        throw InputError("--" + name + " '" + text + "': expected a number in " + range);
    if (value < min || value > max)
        throw InputError("--" + name + " " + text + ": must be in " + range);
    return value;
}

std::string joined_command_line(int argc, char** argv, const std::string& prefix) {
    std::string s = prefix;
    for (int i = 0; i < argc; ++i) {
        s += ' ';
        s += argv[i];
    }
    return s;
}

std::vector<std::string> split_list(const std::string& text, const std::string& flag) {
    std::vector<std::string> items;
    std::string::size_type start = 0;
    while (true) {
        auto comma = text.find(',', start);
        std::string item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty()) throw InputError(flag + ": empty item in list '" + text + "'");
        items.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return items;
}

}  // namespace gaeval::cli
