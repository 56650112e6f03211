// Catch2 entry point for dambit_tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
