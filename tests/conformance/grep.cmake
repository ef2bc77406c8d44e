# The grep conformance corpus runner. Include from tests/CMakeLists.txt:
#   include(${CMAKE_CURRENT_SOURCE_DIR}/conformance/grep.cmake)
# It runs ../shared/conformance/grep (via VSH_SHARED_DIR) and compares the
# failures with grep-expected-failures.txt; without the corpus it exits 77,
# which ctest reports as skipped.
set(grep_corpus_objs $<TARGET_OBJECTS:vsh_core> $<TARGET_OBJECTS:vsh_vfs>
    $<TARGET_OBJECTS:vsh_builtins> $<TARGET_OBJECTS:vsh_shell>)
if(TARGET vsh_net)
  list(APPEND grep_corpus_objs $<TARGET_OBJECTS:vsh_net>)
endif()
add_executable(grep_corpus ${CMAKE_CURRENT_LIST_DIR}/grep_corpus.c
                           ${grep_corpus_objs})
target_include_directories(grep_corpus PRIVATE ${PROJECT_SOURCE_DIR}/include
                                               ${PROJECT_SOURCE_DIR})
target_compile_definitions(grep_corpus PRIVATE _GNU_SOURCE)
target_link_libraries(grep_corpus PRIVATE ${vsh_private_deps}
                                          PkgConfig::CMOCKA m)
add_test(NAME grep_corpus
         COMMAND grep_corpus
                 ${CMAKE_CURRENT_LIST_DIR}/grep-expected-failures.txt)
set_tests_properties(grep_corpus PROPERTIES SKIP_RETURN_CODE 77
  ENVIRONMENT "VSH_SHARED_DIR=${PROJECT_SOURCE_DIR}/../shared")
