"""The shared production stack is started by one test worker: the test command's
`--dist loadgroup` keeps a group on one worker only while the group is part of each test's id
(a pytest upgrade once dropped it silently, and each worker started a stack of its own)."""


def test_the_tests_of_the_shared_stack_carry_their_group_to_one_worker(request, site):
    grouped = request.config.getvalue("loadgroup")  # set on the workers of -n N --dist loadgroup
    assert site.url.startswith("https://")
    assert not grouped or request.node.nodeid.endswith("@production"), request.node.nodeid
