"""LAVA's own code on scalebench's test definition (selftest/lava_testdef.t): its schema, its helpers, its run.sh.

python3 lava_deploy.py LAVA_PKGDIR TESTDEF CLONE LAVADIR [NAME=VALUE...]
LAVA_PKGDIR: the dist-packages of Debian's lava-common and lava-dispatcher (dpkg -x). Validates
TESTDEF with lava_common's test definition schema (and each job of the files in SB_LAVA_JOBS,
blank-separated, with its job schema); lays the lava_test_shell helpers into LAVADIR/bin as LAVA's
overlay does (the interpreter line of Debian's deployment data, mode 755); writes CLONE/run.sh
with LAVA's TestRunnerAction, the NAME=VALUE pairs as the job's test parameters.
"""
import logging
import os
import sys


def deploy_helpers(lava, bindir):
    """The helpers as lava_dispatcher's OverlayAction copies them: "#!SHELL" and a blank line first, 755."""
    from lava_dispatcher import deployment_data
    shell = deployment_data.debian["lava_test_sh_cmd"]
    src = os.path.join(lava, "lava_dispatcher", "lava_test_shell")
    os.makedirs(bindir, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.startswith("lava-"):
            continue
        with open(os.path.join(src, name)) as fin, open(os.path.join(bindir, name), "w") as fout:
            fout.write("#!%s\n\n" % shell)
            fout.write(fin.read())
            os.fchmod(fout.fileno(), 0o755)


def write_run_sh(testdef, clone, params):
    """CLONE/run.sh by LAVA's TestRunnerAction, its namespace data given by hand."""
    from lava_dispatcher.actions.deploy.testdef import TestRunnerAction
    action = TestRunnerAction()
    action.parameters = {"name": "scalebench", "path": os.path.relpath(testdef, clone), "from": "git",
                         "repository": "scalebench", "test_name": "0_scalebench", "params": params}
    action.test_uuid = "1_1.1"
    action.level = "1.1"
    data = {("uuid", "overlay_path"): clone, ("uuid", "runner_path"): clone,
            (action.name, action.name): {"1.1": "0_scalebench"}}
    action.get_namespace_data = lambda action, label, key, **kw: data.get((action, label))
    action.logger = logging.getLogger("lava")
    action.run(None, None)


def main():
    lava, testdef, clone, lavadir = sys.argv[1:5]
    params = dict(a.split("=", 1) for a in sys.argv[5:])
    sys.path.insert(0, lava)
    import yaml
    from lava_common.schemas import validate as validate_job
    from lava_common.schemas.test import testdef as testdef_schema
    with open(testdef) as f:
        testdef_schema.validate(yaml.safe_load(f))
    print("testdef: accepted by lava_common.schemas.test.testdef")
    for path in os.environ.get("SB_LAVA_JOBS", "").split():
        with open(path) as f:
            validate_job(yaml.safe_load(f))
        print("job: %s accepted by lava_common.schemas" % os.path.basename(path))
    deploy_helpers(lava, os.path.join(lavadir, "bin"))
    write_run_sh(testdef, clone, params)


if __name__ == "__main__":
    main()
