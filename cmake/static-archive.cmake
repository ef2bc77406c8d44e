# The static library as installed: every object of libvsh.a linked into one
# relocatable object whose hidden symbols (everything but the VSH_API
# functions) are then made local, so that a program linking libvsh.a
# statically sees only the vsh_ names, as with libvsh.so, and none of its
# own functions can clash with one of ours of the same name. The build tree keeps the
# plain archive (the tests call internal functions). The rule installs
# over the file install(TARGETS vsh_static) put at the same path, so the
# exported CMake target names the processed archive.
if(CMAKE_LINKER AND CMAKE_OBJCOPY AND CMAKE_AR AND CMAKE_RANLIB AND NOT VSH_FUZZ
   AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(vsh_dist ${PROJECT_BINARY_DIR}/dist)
  add_custom_command(OUTPUT ${vsh_dist}/libvsh.a
    COMMAND ${CMAKE_COMMAND} -E make_directory ${vsh_dist}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${vsh_dist}/libvsh.a ${vsh_dist}/libvsh.o
    COMMAND ${CMAKE_LINKER} -r --whole-archive $<TARGET_FILE:vsh_static>
            -o ${vsh_dist}/libvsh.o
    COMMAND ${CMAKE_OBJCOPY} --localize-hidden ${vsh_dist}/libvsh.o
    COMMAND ${CMAKE_AR} qc ${vsh_dist}/libvsh.a ${vsh_dist}/libvsh.o
    COMMAND ${CMAKE_RANLIB} ${vsh_dist}/libvsh.a
    DEPENDS vsh_static
    COMMENT "Localizing libvsh.a's internal symbols for installation"
    VERBATIM)
  add_custom_target(vsh_static_dist ALL DEPENDS ${vsh_dist}/libvsh.a)
  install(FILES ${vsh_dist}/libvsh.a DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
endif()
