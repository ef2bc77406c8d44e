# The sed conformance corpus runner. Include from tests/CMakeLists.txt:
#   include(${CMAKE_CURRENT_SOURCE_DIR}/conformance/sed.cmake)
# It runs ../shared/conformance/sed (via VSH_SHARED_DIR) through the public
# API and compares the failures with sed-expected-failures.txt; without the
# corpus it exits 77, which ctest reports as skipped.
set(sed_corpus_objs $<TARGET_OBJECTS:vsh_core> $<TARGET_OBJECTS:vsh_vfs>
    $<TARGET_OBJECTS:vsh_builtins> $<TARGET_OBJECTS:vsh_shell>)
if(TARGET vsh_net)
  list(APPEND sed_corpus_objs $<TARGET_OBJECTS:vsh_net>)
endif()
add_executable(sed_corpus ${CMAKE_CURRENT_LIST_DIR}/sed_corpus.c
                          ${sed_corpus_objs})
target_include_directories(sed_corpus PRIVATE ${PROJECT_SOURCE_DIR}/include
                                              ${PROJECT_SOURCE_DIR})
target_compile_definitions(sed_corpus PRIVATE _GNU_SOURCE)
target_link_libraries(sed_corpus PRIVATE ${vsh_private_deps} m)
add_test(NAME sed_corpus
         COMMAND sed_corpus
                 ${CMAKE_CURRENT_LIST_DIR}/sed-expected-failures.txt)
set_tests_properties(sed_corpus PROPERTIES SKIP_RETURN_CODE 77
  ENVIRONMENT "VSH_SHARED_DIR=${PROJECT_SOURCE_DIR}/../shared")
