# Debian packages, built with `cpack -G DEB` in a configured build directory
# (scripts/deb-test.sh builds, installs and tests them). One package per
# install component, named as Debian names them:
#   libvsh0     the shared library, named after its SONAME so that a later
#               libvsh1 can be installed beside it;
#   libvsh-dev  vsh.h, the static library, the libvsh.so link, the
#               pkg-config file and the CMake package (vshConfig.cmake finds
#               the static link's libraries through pkg-config, so it needs
#               their -dev packages);
#   vsh         the command (linked statically against libvsh) and its
#               manual page.
# Depends are computed by dpkg-shlibdeps (package dpkg-dev) from the ELF
# files. Files install under CPACK_PACKAGING_INSTALL_PREFIX (/usr) with the
# directories the build was configured with: configure with
# -DCMAKE_INSTALL_PREFIX=/usr for Debian's multiarch library directory.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vsh)
set(CPACK_PACKAGE_VENDOR "vsh developers")
set(CPACK_PACKAGE_CONTACT "vsh developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_STRIP_FILES ON) # the symbol tables stay out, as in Debian's packages

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
if(TARGET vsh_cli)
  list(APPEND CPACK_COMPONENTS_ALL cli)
endif()
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "vsh developers")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # name_version-release_arch.deb
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libvsh0's shlibs file: a program built against this version needs at
# least this version (the ABI only grows within SONAME 0; api/vsh.map).
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# libvsh-dev depends on the exact libvsh0 it was built with.
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)
set(CPACK_COMPONENT_DEV_DEPENDS runtime)

# Descriptions: the synopsis line, then paragraphs (CPack indents them).
set(vsh_deb_about
  "vsh runs bash scripts inside the calling process, over an in-memory\n"
  "copy-on-write filesystem: bash's language, files and the usual text tools,\n"
  "with limits on time, memory and output, and no access to the host (no\n"
  "process is started, no host file is opened except directories layered in\n"
  "read-only, no network unless an allow-list says so). It serves as an\n"
  "isolate sandbox for agent frameworks.\n\n")
string(CONCAT vsh_deb_about ${vsh_deb_about})

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libvsh0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
# dpkg refreshes the linker cache through its ldconfig trigger once per run
# (CPack's postinst calls ldconfig as well, which is harmless).
file(WRITE ${PROJECT_BINARY_DIR}/debian/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/debian/triggers)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "in-process bash-compatible shell over a virtual filesystem (library)\n${vsh_deb_about}This package holds the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libvsh-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(vsh_dev_depends "pkg-config | pkgconf, libpcre2-dev, libutf8proc-dev, zlib1g-dev, libssl-dev, libarchive-dev, liblzma-dev, libbz2-dev, libsqlite3-dev")
if(VSH_NET)
  string(APPEND vsh_dev_depends ", libcurl4-openssl-dev | libcurl-dev")
endif()
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${vsh_dev_depends}")
set(CPACK_DEBIAN_DEV_DESCRIPTION
  "in-process bash-compatible shell over a virtual filesystem (development)\n${vsh_deb_about}This package holds the header, the static library, the pkg-config file\nand the CMake package (find_package(vsh)).")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME vsh)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION shells)
set(CPACK_DEBIAN_CLI_DESCRIPTION
  "in-process bash-compatible shell over a virtual filesystem (command)\n${vsh_deb_about}This package holds the vsh command and its manual page.")

# Each package's /usr/share/doc/<package>/copyright, in Debian's
# machine-readable format. LICENSE is the Apache License 2.0 word for word,
# which every Debian system has as /usr/share/common-licenses/Apache-2.0
# (package base-files), so the file names it as Debian's policy asks rather
# than repeating it. These rules are EXCLUDE_FROM_ALL: a plain
# `cmake --install` installs LICENSE itself (share/doc/vsh/LICENSE).
string(TIMESTAMP vsh_year "%Y" UTC) # honours SOURCE_DATE_EPOCH
set(vsh_years 2026)
if(vsh_year GREATER 2026)
  set(vsh_years 2026-${vsh_year})
endif()
file(WRITE ${PROJECT_BINARY_DIR}/debian/copyright
  "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
  "Upstream-Name: vsh\n"
  "\n"
  "Files: *\n"
  "Copyright: ${vsh_years} vsh developers\n"
  "License: Apache-2.0\n"
  "\n"
  "License: Apache-2.0\n"
  " Licensed under the Apache License, Version 2.0 (the \"License\"); you may\n"
  " not use this software except in compliance with the License.\n"
  " .\n"
  " On Debian systems, the full text of the Apache License, Version 2.0 is in\n"
  " /usr/share/common-licenses/Apache-2.0.\n")
foreach(c IN LISTS CPACK_COMPONENTS_ALL)
  string(TOUPPER ${c} C)
  install(FILES ${PROJECT_BINARY_DIR}/debian/copyright
    DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${CPACK_DEBIAN_${C}_PACKAGE_NAME}
    RENAME copyright COMPONENT ${c} EXCLUDE_FROM_ALL)
endforeach()

# `cpack --config CPackSourceConfig.cmake` (target package_source): the
# source tree as a .tar.gz, without the build trees and what .gitignore
# leaves out.
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME vsh-${PROJECT_VERSION})
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/\\\\.git$" "^${PROJECT_SOURCE_DIR}/_?build[^/]*/"
  "\\\\.(o|a|so)$" "/compile_commands\\\\.json$" "^${PROJECT_SOURCE_DIR}/bench/(data|node_modules)/")

include(CPack)
