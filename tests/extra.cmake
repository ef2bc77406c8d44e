# Extra tests owned by the driver/CLI layer (included from tests/CMakeLists.txt).
if(TARGET vsh_cli)
  add_test(NAME cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli.sh
                            $<TARGET_FILE:vsh_cli>)
  # the prompt, typed at through a pseudo-terminal (needs libedit)
  if(LIBEDIT_FOUND)
    add_test(NAME cli_prompt COMMAND python3
             ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_prompt.py $<TARGET_FILE:vsh_cli>)
  endif()
endif()

# The hostile suite: scripts that try to crash, hang or exhaust the host.
# Sanitizer builds run several times slower, so their time bound is wider.
if(TARGET vsh_cli)
  if(VSH_SANITIZE)
    set(vsh_hostile_ms 20000)
  else()
    set(vsh_hostile_ms 3000)
  endif()
  add_test(NAME hostile COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/hostile/run.sh
                                $<TARGET_FILE:vsh_cli>)
  set_tests_properties(hostile PROPERTIES ENVIRONMENT
                       "HOSTILE_MAX_MS=${vsh_hostile_ms}")
endif()

# test_exec_limits times how soon each builtin's endless case stops after its
# deadline or a cancel (within 100 ms); other tests sharing the cores would
# make that measure the machine's load instead.
if(TEST test_exec_limits)
  set_tests_properties(test_exec_limits PROPERTIES RUN_SERIAL TRUE)
endif()

# test_stream_timing checks when each line reaches the output callback
# (a line must arrive well before the next one, 300 ms later): a loaded
# machine would make that measure the load.
if(TEST test_stream_timing)
  set_tests_properties(test_stream_timing PROPERTIES RUN_SERIAL TRUE)
endif()

# The man page renders without warnings and names every option of --help.
find_program(VSH_GROFF groff)
find_program(VSH_MAN man)
if(TARGET vsh_cli AND VSH_GROFF AND VSH_MAN)
  add_test(NAME man_page COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check-man.sh
                                 $<TARGET_FILE:vsh_cli>
                                 ${PROJECT_SOURCE_DIR}/docs/vsh.1)
endif()

# The C API reference docs/api.md: regenerated from include/vsh.h it must
# be the checked-in file, and each of its examples (and the one of
# docs/embedding.md) must compile against vsh.h, link with the library, run
# and print what the page shows.
if(TARGET vsh_shared)
  add_test(NAME api_doc COMMAND python3
           ${PROJECT_SOURCE_DIR}/scripts/gen-api-doc.py --check)
  set(vsh_example_cflags "")
  if(VSH_SANITIZE)
    set(vsh_example_cflags "-fsanitize=${VSH_SANITIZE} -fno-omit-frame-pointer")
  endif()
  add_test(NAME api_examples
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/docs/api_examples.py
                   --cc ${CMAKE_C_COMPILER}
                   --include ${PROJECT_SOURCE_DIR}/include
                   --lib $<TARGET_FILE:vsh_shared>
                   "--cflags=${vsh_example_cflags}" --min 8
                   ${PROJECT_SOURCE_DIR}/docs/api.md)
  # the C program of the embedding guide, the same way
  add_test(NAME embedding_examples
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/docs/api_examples.py
                   --cc ${CMAKE_C_COMPILER}
                   --include ${PROJECT_SOURCE_DIR}/include
                   --lib $<TARGET_FILE:vsh_shared>
                   "--cflags=${vsh_example_cflags}" --min 1
                   ${PROJECT_SOURCE_DIR}/docs/embedding.md)
endif()
