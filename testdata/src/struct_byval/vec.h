struct Vec3 { float x, y, z; };
struct Ray { Vec3 o, d; int id; double t; };
struct Packed { char a; long long b; short c; };
