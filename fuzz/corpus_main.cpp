// A main for the fuzz targets without libFuzzer: runs each file of the given folders (or
// each file named) through LLVMFuzzerTestOneInput once. The sanitizer preset builds every
// target with it and runs it over the committed seed corpus, so the test command checks each
// target's properties on every seed under AddressSanitizer and UndefinedBehaviorSanitizer;
// fuzzing proper (mutating inputs for minutes) is scripts/fuzz.sh's (docs/fuzzing.md).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

int main(int argc, char** argv) {
  int inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (!std::filesystem::is_directory(path)) {
      run(path);
      ++inputs;
      continue;
    }
    for (const auto& entry : std::filesystem::directory_iterator(path)) {
      if (!entry.is_regular_file()) continue;
      run(entry.path());
      ++inputs;
    }
  }
  if (inputs == 0) {
    std::fprintf(stderr, "no input: name seed files or folders of them\n");
    return 2;
  }
  std::printf("%d inputs, every property held\n", inputs);
  return 0;
}
