# Every problem (problems/problem.hpp): the one list. Adding a problem is its header, its test and
# one line here. The build generates include/generated/problem_list.hpp from it (CMakeLists.txt):
# the headers and GAEVAL_FOR_EACH_PROBLEM in this order, which the host registry
# (host/learn/learn_problems.cpp: `gaeval learn --problem`, in this order in --help) and the device
# instantiation (kernels/problem_ops.cu) read.
#
# gaeval_problem(HEADER <problems/...hpp> TYPE <C++ type>)
gaeval_problem(HEADER problems/rastrigin.hpp TYPE ::gaeval::problems::Rastrigin)
gaeval_problem(HEADER problems/sphere.hpp TYPE ::gaeval::problems::Sphere)
gaeval_problem(HEADER problems/pile_in.hpp TYPE ::gaeval::problems::PileIn)
gaeval_problem(HEADER problems/pile_in_rules.hpp TYPE ::gaeval::problems::PileInRules)
