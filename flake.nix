{
  description = "Public home-service booking API for Sweden (TypeScript on Effect, PostgreSQL)";

  # A supported NixOS release branch; Node 24 is the LTS the project runs and CI smoke-tests.
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-26.05";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
      forAll = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
    in
    {
      # `nix develop`, then `npm ci && npm start`.
      devShells = forAll (pkgs: {
        default = pkgs.mkShell {
          packages = [ pkgs.nodejs_24 pkgs.postgresql_16 ];
          shellHook = ''
            echo "node $(node --version), $(postgres --version)"
            echo "npm ci && npm start   # API on http://127.0.0.1:8080 with an embedded PostgreSQL"
          '';
        };
      });

      # `nix build`: the compiled server (npm run build), run as `result/bin/booking-api`.
      packages = forAll (pkgs: {
        default = pkgs.buildNpmPackage {
          pname = "home-service-booking-api";
          version = "0.1.0";
          src = self;
          nodejs = pkgs.nodejs_24;
          # Pin after the first `nix build`, which prints the hash of the npm dependencies.
          npmDepsHash = pkgs.lib.fakeHash;
          npmBuildScript = "build";
          installPhase = ''
            runHook preInstall
            mkdir -p $out/lib/booking-api $out/bin
            # Production carries no dev dependencies: no tsx, no embedded PostgreSQL (docs/client.md, README).
            npm prune --omit=dev --ignore-scripts --no-audit --no-fund
            cp -r dist package.json node_modules $out/lib/booking-api/
            makeWrapper ${pkgs.nodejs_24}/bin/node $out/bin/booking-api \
              --add-flags "--max-semi-space-size=8 $out/lib/booking-api/dist/src/main.js"
            runHook postInstall
          '';
        };
      });
    };
}
