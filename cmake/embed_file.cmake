# embed_file.cmake — turns one data file into a C string constant, so a built library carries
# its default data and works from any directory. Run at build time with -DIN, -DOUT, -DNAME.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
set(body "/* generated from ${IN} by cmake/embed_file.cmake; do not edit */\n")
string(APPEND body "extern const char ${NAME}[];\nconst char ${NAME}[] = {${bytes}0};\n")
file(WRITE "${OUT}.tmp" "${body}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
