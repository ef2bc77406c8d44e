# Conformance corpus runners (included from tests/CMakeLists.txt). Each
# tests/conformance/NAME_corpus.c runs ../shared/conformance/NAME (found via
# VSH_SHARED_DIR) through the public API and compares its failures with
# NAME-expected-failures.txt; without the corpus it exits 77, which ctest
# reports as skipped.
function(vsh_corpus_test name)
  add_executable(${name}_corpus ${CMAKE_CURRENT_LIST_DIR}/${name}_corpus.c)
  target_include_directories(${name}_corpus PRIVATE
    ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${name}_corpus PRIVATE _GNU_SOURCE)
  target_link_libraries(${name}_corpus PRIVATE vsh_static ${vsh_private_deps}
                                               ${ARGN} m)
  add_test(NAME ${name}_corpus COMMAND ${name}_corpus
           ${CMAKE_CURRENT_LIST_DIR}/${name}-expected-failures.txt)
  set_tests_properties(${name}_corpus PROPERTIES SKIP_RETURN_CODE 77
    ENVIRONMENT "VSH_SHARED_DIR=${PROJECT_SOURCE_DIR}/../shared")
endfunction()
vsh_corpus_test(sed)
vsh_corpus_test(grep PkgConfig::CMOCKA)
vsh_corpus_test(jq)
add_test(NAME jq_corpus_self_test COMMAND jq_corpus --self-test)
vsh_corpus_test(awk)
