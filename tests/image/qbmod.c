/* A Lua C module for the image: require("qbmod") dlopens it; its
 * functions call back into the interpreter's shared library. */
#include "lauxlib.h"
#include "lua.h"

static int qb_join(lua_State *L)
{
	int n = lua_gettop(L);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (int i = 1; i <= n; i++) {
		if (i > 1)
			luaL_addchar(&b, '+');
		luaL_addstring(&b, luaL_checkstring(L, i));
	}
	luaL_pushresult(&b);
	return 1;
}

static int qb_sum(lua_State *L)
{
	lua_Integer s = 0;
	for (int i = 1; i <= lua_gettop(L); i++)
		s += luaL_checkinteger(L, i);
	lua_pushinteger(L, s);
	return 1;
}

int luaopen_qbmod(lua_State *L)
{
	static const luaL_Reg fns[] = {{"join", qb_join}, {"sum", qb_sum}, {NULL, NULL}};
	luaL_newlib(L, fns);
	return 1;
}
