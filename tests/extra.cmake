# Extra tests owned by the driver/CLI layer (included from tests/CMakeLists.txt).
if(TARGET vsh_cli)
  add_test(NAME cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli.sh
                            $<TARGET_FILE:vsh_cli>)
endif()
