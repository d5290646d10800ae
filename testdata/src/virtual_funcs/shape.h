// Polymorphic shapes built on the device; the vtables live in shapes.cu (key functions there).
struct Shape {
  __device__ virtual ~Shape() {}
  __device__ virtual float area() const;
  __device__ virtual int sides() const { return 0; }
};
struct Circle : Shape {
  float r;
  __device__ explicit Circle(float r_) : r(r_) {}
  __device__ float area() const override;
};
struct Square : Shape {
  float s;
  __device__ explicit Square(float s_) : s(s_) {}
  __device__ float area() const override;
  __device__ int sides() const override { return 4; }
};
__device__ Shape *make_shape(int kind, float x);
