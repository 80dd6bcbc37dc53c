export TGEMM_ARCH=avx2
bash /tmp/alt.sh /tmp/res_ft 3 activate:gelu_tanh,bias_act:gelu_tanh s M FT4
bash /tmp/alt.sh /tmp/res_fe 3 activate:gelu_erf s M FE2 FE4
bash /tmp/alt.sh /tmp/res_fs 3 activate:sigmoid,activate:silu s M FS2
